import { describe, expect, it } from 'vitest';
import { type ArchivedChunk, ObjectTexts } from './archive-texts.ts';

const chunk = (chunkId: string, text?: string | null, sourceDocVersion: string | null = 'v1'): ArchivedChunk =>
  text === undefined ? { chunkId, sourceDocVersion } : { chunkId, sourceDocVersion, text };

describe('chunk texts written once an object', () => {
  it('keeps a text on the first chunk citing it, by chunk and version, and leaves it out after', () => {
    const texts = new ObjectTexts();
    const first = [chunk('c1', 'one'), chunk('c1', 'one', 'v2'), chunk('c2', null)];
    expect(texts.keep(first)).toBe(false);
    expect(first).toEqual([chunk('c1', 'one'), chunk('c1', 'one', 'v2'), chunk('c2', null)]);
    const second = [chunk('c2', null), chunk('c1', 'one'), chunk('c3', 'three')];
    expect(texts.keep(second)).toBe(true);
    expect(second).toEqual([chunk('c2'), chunk('c1'), chunk('c3', 'three')]);
  });

  it('gives a dropped line’s texts to the next line kept that cites them, once', () => {
    const texts = new ObjectTexts();
    texts.drop([chunk('c1', 'one'), chunk('c2', null)]);
    const kept = [chunk('c1'), chunk('c2')];
    expect(texts.keep(kept)).toBe(true);
    expect(kept).toEqual([chunk('c1', 'one'), chunk('c2', null)]);
    const after = [chunk('c1')];
    expect(texts.keep(after)).toBe(false);
    expect(after).toEqual([chunk('c1')]);
    // A dropped line citing a text written already changes nothing.
    texts.drop([chunk('c1', 'one')]);
    const last = [chunk('c1')];
    texts.keep(last);
    expect(last).toEqual([chunk('c1')]);
  });
});
