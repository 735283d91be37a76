import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terms } from '../terms.ts';
import { MAX_CHUNK_TEXT } from '../thresholds.ts';
import { CHUNK_TERMS_CACHE_BYTES, CHUNK_TERMS_CACHE_SIZE, chunkTermIds, hasTerm, queryTermIds } from './chunk-terms.ts';

/** More text than a Worker's 128 MB can spare for a cache. */
const TOO_MUCH = 100_000_000;

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

  it('does not hold 100 MB of chunks, however few: the oldest go first', () => {
    queryTermIds(['gate']);
    const hot = { chunkId: 'hot', text: 'gate model rollback' };
    const held = chunkTermIds(hot);
    expect(chunkTermIds(hot)).toBe(held);
    // Chunks as long as a trace keeps: far fewer than the entries it may hold.
    const long = (i: number) => ({ chunkId: `long-${i}`, text: `c${i} ${'gate '.repeat(MAX_CHUNK_TEXT / 5 - 2)}` });
    const count = TOO_MUCH / MAX_CHUNK_TEXT;
    expect(count).toBeLessThan(CHUNK_TERMS_CACHE_SIZE);
    for (let i = 0; i < count; i++) chunkTermIds(long(i));
    expect(chunkTermIds(hot)).not.toBe(held);
    const newest = chunkTermIds(long(count - 1));
    expect(chunkTermIds(long(count - 1))).toBe(newest);
    // Tokenising 100 MB takes some 2.5 s on an idle machine: room for a loaded one.
  }, 30_000);

  it('keeps of a chunk longer than a trace keeps only what it reads, so one long document empties nothing', () => {
    queryTermIds(['gate']);
    const hot = { chunkId: 'hot', text: 'gate model rollback' };
    const held = chunkTermIds(hot);
    expect(CHUNK_TERMS_CACHE_BYTES).toBeLessThan(TOO_MUCH);
    const document = { chunkId: 'whole-document', text: `gate ${'x'.repeat(CHUNK_TERMS_CACHE_BYTES)}` };
    const own = chunkTermIds(document);
    expect(chunkTermIds(document)).toBe(own);
    expect(chunkTermIds(hot)).toBe(held);
  });
});
