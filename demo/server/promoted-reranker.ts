/**
 * The demo's reranker once the loop has a model: `createReranker` from the client library,
 * keeping the promoted model fresh from the collector. Until a model is promoted it keeps
 * retrieval's order, and traces carry no reranker version.
 */
import { createReranker, type RerankerOptions } from '../../client/reranker.ts';
import type { Reranker } from './rerank.ts';

export function promotedReranker(options: RerankerOptions): Reranker {
  const client = createReranker(options);
  return {
    get version() {
      return client.version;
    },
    async rerank(query, candidates) {
      const ranked = await client.rerank(
        query,
        candidates.map((s) => ({
          chunkId: s.chunk.chunkId,
          sourceDocId: s.chunk.sourceDocId,
          title: s.chunk.title,
          text: s.chunk.text,
          score: s.score,
          scored: s,
        })),
      );
      return ranked.map((r) => ({ chunk: r.scored.chunk, score: r.rerankScore }));
    },
  };
}
