import { describe, expect, it } from 'vitest';
import { CHUNK_VECTOR_CACHE, CHUNK_VECTOR_CACHE_BYTES } from '../../client/reranker.ts';
import type { Embedder } from '../../shared/embedder.ts';
import { cachedEmbedder } from './corpus-embedder.ts';

/** An embedder of `dims` dimensions whose vector tells its text (its length, then the text's last number), recording what it is asked. */
const counting = (dims = 2) => {
  const calls: string[][] = [];
  const inner: Embedder = {
    id: 'model:fp32',
    embed: async (texts) => {
      calls.push([...texts]);
      return texts.map((t) => {
        const v = new Float32Array(dims);
        v[0] = t.length;
        v[1] = Number(t.match(/\d+$/)?.[0] ?? -1);
        return v;
      });
    },
  };
  return { calls, inner };
};

describe('cachedEmbedder', () => {
  it('embeds each distinct text once, keeps the order asked and the model id', async () => {
    const { calls, inner } = counting();
    const cached = cachedEmbedder(inner);
    expect(cached.id).toBe('model:fp32');
    expect(await cached.embed(['ab', 'abc', 'ab'])).toEqual([Float32Array.of(2, -1), Float32Array.of(3, -1), Float32Array.of(2, -1)]);
    expect(await cached.embed(['abc', 'abcd'])).toEqual([Float32Array.of(3, -1), Float32Array.of(4, -1)]);
    expect(await cached.embed(['ab'])).toEqual([Float32Array.of(2, -1)]);
    expect(calls).toEqual([['ab', 'abc'], ['abcd']]);
  });

  it("keeps as many texts as the client's vector cache, embedding the oldest it let go again to the same vector, and answers a call larger than that in full", async () => {
    const { calls, inner } = counting();
    const cached = cachedEmbedder(inner);
    const texts = Array.from({ length: CHUNK_VECTOR_CACHE + 1 }, (_, i) => `chunk ${i}`);
    const all = await cached.embed(texts);
    expect(all.map((v) => v[1])).toEqual(texts.map((_, i) => i));
    expect(await cached.embed([texts.at(-1)!])).toEqual([all.at(-1)]);
    expect(calls).toHaveLength(1);
    expect(await cached.embed([texts[0]!])).toEqual([all[0]]);
    expect(calls.at(-1)).toEqual(['chunk 0']);
  });

  it("keeps the corpus it is told for the whole run, past the client's cache bounds, while other texts stay within them", async () => {
    const { calls, inner } = counting();
    const cached = cachedEmbedder(inner);
    const corpus = Array.from({ length: CHUNK_VECTOR_CACHE + 1 }, (_, i) => `chunk ${i}`);
    await cached.keep(corpus);
    await cached.keep(corpus.slice(0, 2));
    expect(calls).toHaveLength(1);
    // Queries fill the bounded cache; the corpus's first passage is still not embedded again.
    await cached.embed(Array.from({ length: CHUNK_VECTOR_CACHE + 1 }, (_, i) => `query ${i}`));
    expect(await cached.embed([corpus[0]!, 'query 0'])).toEqual([Float32Array.of(7, 0), Float32Array.of(7, 0)]);
    expect(calls.map((c) => c.length)).toEqual([CHUNK_VECTOR_CACHE + 1, CHUNK_VECTOR_CACHE + 1, 1]);
    expect(calls.at(-1)).toEqual(['query 0']);
  });

  it('keeps its vectors and texts within CHUNK_VECTOR_CACHE_BYTES, however few they are', async () => {
    // A million dimensions: four megabytes a vector, so 17 texts pass the bound.
    const { calls, inner } = counting(1_000_000);
    const cached = cachedEmbedder(inner);
    const texts = Array.from({ length: Math.ceil(CHUNK_VECTOR_CACHE_BYTES / 4_000_000) + 1 }, (_, i) => `chunk ${i}`);
    await cached.embed(texts);
    await cached.embed([texts.at(-1)!]);
    expect(calls).toHaveLength(1);
    expect((await cached.embed([texts[0]!]))[0]![1]).toBe(0);
    expect(calls.at(-1)).toEqual(['chunk 0']);
  });
});
