import { describe, expect, it } from 'vitest';
import { MAX_CHUNK_TEXT } from '../thresholds.ts';
import { chunkTerms } from './chunk-terms.ts';

describe('chunkTerms', () => {
  it('reads no more of a chunk than a trace keeps, so serving sees the text training saw', () => {
    const text = `${'filler '.repeat(MAX_CHUNK_TEXT / 7)}zeaxanthin`;
    expect(text.length).toBeGreaterThan(MAX_CHUNK_TEXT);
    const served = chunkTerms({ chunkId: 'long', text });
    const trained = chunkTerms({ chunkId: 'long-as-stored', text: text.slice(0, MAX_CHUNK_TEXT) });
    expect(served.has('zeaxanthin')).toBe(false);
    expect([...served]).toEqual([...trained]);
  });
});
