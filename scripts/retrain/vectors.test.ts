import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../shared/embedder.ts';
import { traceQueryKey } from '../../shared/terms.ts';
import { chunkVectorKey } from '../../shared/training/train.ts';
import { embedAll } from './vectors.ts';

/** One-dimensional vectors that say which text they embed: its place in the texts seen. */
function countingEmbedder(): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    id: 'counting',
    texts,
    embed: async (batch) => batch.map((t) => Float32Array.of(texts.push(t))),
  };
}

describe('embedAll', () => {
  it('gives every query key a vector, though answers to stop words alone share their text', async () => {
    const embedder = countingEmbedder();
    const confirmed = ['why-a', 'why-b'].map((traceId) => ({
      queryKey: traceQueryKey('Why?', traceId),
      query: 'Why?',
      chunkId: 'c',
      sourceDocId: 'd',
      relevance: 1 as const,
    }));
    const vectors = await embedAll(embedder, { confirmed, lists: [], engagement: [], queryEngagement: [] }, []);
    // The text is embedded once, and both questions get its vector.
    expect(embedder.texts).toEqual(['Why?']);
    expect([...vectors.queries]).toEqual(confirmed.map((c) => [c.queryKey, Float32Array.of(1)]));
  });

  it("embeds each text a chunk id came with, and keys the vectors by both: an edited chunk is not given its old text's vector", async () => {
    const embedder = countingEmbedder();
    const before = { chunkId: 'refunds#1', sourceDocId: 'refunds.md', text: 'Refunds within 14 days.', score: 2 };
    const after = { ...before, text: 'Refunds within 30 days.' };
    const lists = [before, after].map((c, i) => ({ queryKey: `q${i}`, query: `q${i}`, candidates: [c] }));
    const evalQuery = { layer: 'echo' as const, query: 'refund window', candidates: [after], judgements: { 'refunds#1': 1 as const } };
    const vectors = await embedAll(embedder, { confirmed: [], lists, engagement: [], queryEngagement: [] }, [evalQuery]);
    expect(embedder.texts).toEqual(['refund window', before.text, after.text]);
    expect(vectors.chunks.get(chunkVectorKey(before))).toEqual(Float32Array.of(2));
    expect(vectors.chunks.get(chunkVectorKey(after))).toEqual(Float32Array.of(3));
  });
});
