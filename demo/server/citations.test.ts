import { describe, expect, it } from 'vitest';
import { citation } from './citations.ts';

describe('citation', () => {
  it('previews a long chunk without half of a character where its limit falls', () => {
    // 699 characters with no space to cut at, then an emoji across the 700-character limit.
    const text = `${'x'.repeat(699)}😀 and more`;
    const { snippet } = citation(1, { chunkId: 'c1', sourceDocId: 'd.md', sourceDocVersion: 'v1', title: 'D', text });
    expect(snippet).toBe(`${'x'.repeat(699)}…`);
    expect(snippet).not.toMatch(/\p{Cs}/u);
  });
});
