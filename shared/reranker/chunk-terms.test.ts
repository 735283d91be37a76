import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terms } from '../terms.ts';
import { MAX_CHUNK_TEXT } from '../thresholds.ts';
import { chunkTermIds, hasTerm, queryTermIds } from './chunk-terms.ts';

describe('chunk terms', () => {
  it('reads no more of a chunk than a trace keeps, so serving sees the text training saw', () => {
    const text = `${'filler '.repeat(MAX_CHUNK_TEXT / 7)}zeaxanthin`;
    expect(text.length).toBeGreaterThan(MAX_CHUNK_TEXT);
    const [zeaxanthin] = queryTermIds(['zeaxanthin']);
    const served = chunkTermIds({ chunkId: 'long', text });
    const trained = chunkTermIds({ chunkId: 'long-as-stored', text: text.slice(0, MAX_CHUNK_TEXT) });
    expect(hasTerm(served, zeaxanthin!)).toBe(false);
    expect([...served]).toEqual([...trained]);
  });

  it('finds exactly the query terms a chunk has, as a set of its terms would, and follows a chunk whose text changed', () => {
    const word = fc.constantFrom('gate', 'model', 'rollback', 'review', 'queue', 'budget', 'nightly', 'trace', '评估', '模型');
    const text = fc.array(word, { maxLength: 30 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(text, text, fc.array(word, { maxLength: 6 }), (before, after, query) => {
        const asked = [...new Set(query.flatMap((w) => terms(w)))];
        // The same chunk id with new text: its ids follow the text.
        for (const t of [before, after]) {
          const own = new Set(terms(t));
          const chunk = chunkTermIds({ chunkId: 'c', text: t });
          const found = [...queryTermIds(asked)].filter((id) => hasTerm(chunk, id)).length;
          expect(found).toBe(asked.filter((x) => own.has(x)).length);
        }
      }),
    );
  });
});
