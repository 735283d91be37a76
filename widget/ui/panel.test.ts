import { describe, expect, it } from 'vitest';
import { CITATION_LABEL_CHARS } from '../defaults.ts';
import { shorten } from './panel.ts';

describe('shorten', () => {
  it('keeps a label that fits, and cuts a longer one to the limit, saying so', () => {
    expect(shorten('[1] Refund policy')).toBe('[1] Refund policy');
    const cut = shorten('x'.repeat(CITATION_LABEL_CHARS + 1));
    expect(cut).toBe(`${'x'.repeat(CITATION_LABEL_CHARS - 1)}…`);
  });

  it('never cuts a character in half (an emoji is two UTF-16 units)', () => {
    // Cut by UTF-16 units, the emoji would lose its second half at the limit.
    const label = `${'x'.repeat(CITATION_LABEL_CHARS - 2)}😀 and more`;
    expect(shorten(label)).toBe(`${'x'.repeat(CITATION_LABEL_CHARS - 2)}😀…`);
    expect(shorten(label)).not.toMatch(/\p{Cs}/u);
  });
});
