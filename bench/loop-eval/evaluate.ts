/**
 * Ranking quality on queries the loop never saw (test, and the validation share of train),
 * through the demo's own path: BM25's top `retrieveK` reordered by the promoted model, fetched
 * from the collector with `createReranker` exactly as the demo does, then BM25's ranks below
 * `retrieveK` up to 100. The reranker reorders only what it is handed, so Recall@100 is
 * retrieval's: the ceiling of any reranker over these candidates, printed beside the rest. Nothing here is logged: these queries never reach the
 * collector as traffic.
 */
import { type Chunk, passage } from '../../demo/corpus/chunk.ts';
import { promotedReranker } from '../../demo/server/promoted-reranker.ts';
import type { Scored } from '../../demo/server/rerank.ts';
import { Bm25Index } from '../../shared/bm25.ts';
import type { Embedder } from '../../shared/embedder.ts';
import { ndcgAt, recallAt } from '../../shared/ranking-metrics.ts';
import type { RerankerModel } from '../../shared/reranker/model.ts';
import { rerankWithModel, usesEmbeddings } from '../../shared/reranker/rerank.ts';
import type { JudgedQuery } from './collection.ts';

export interface Metrics {
  ndcg10: number;
  ndcg5: number;
  recall100: number;
  queries: number;
}

export const DEPTH = 100;

export interface Evaluator {
  /** BM25 alone: what the demo serves before any model is promoted. */
  bm25(queries: readonly JudgedQuery[]): Promise<Metrics>;
  /**
   * The collector's promoted model, through `createReranker` (BM25's order when none is promoted),
   * with what the client reported going wrong: it falls back to retrieval's order, as a backend should.
   */
  promoted(queries: readonly JudgedQuery[]): Promise<{ metrics: Metrics; version: string | undefined; errors: Error[] }>;
  /** A stored model's artifact (promoted or not), ranked by the same `rerank()` code. */
  model(model: RerankerModel, queries: readonly JudgedQuery[]): Promise<Metrics>;
  /** Any reordering of retrieval's top `retrieveK`, measured the same way. */
  reordered(queries: readonly JudgedQuery[], rerank: (query: string, candidates: Scored[]) => Scored[]): Promise<Metrics>;
}

/** With `embedder`, models trained with embedding features rank with them, as the demo does. */
export function evaluator(chunks: readonly Chunk[], retrieveK: number, collector?: { endpoint: string; serverKey: string }, embedder?: Embedder): Evaluator {
  const index = new Bm25Index(chunks);
  const retrieved = new Map<string, Scored[]>();
  const top = (q: JudgedQuery) => {
    let hits = retrieved.get(q.id);
    if (!hits) retrieved.set(q.id, (hits = index.search(q.text, DEPTH).map((h) => ({ chunk: h.doc, score: h.score }))));
    return hits;
  };

  async function measure(queries: readonly JudgedQuery[], rerank: (q: string, candidates: Scored[]) => Promise<Scored[]> | Scored[]): Promise<Metrics> {
    let ndcg10 = 0;
    let ndcg5 = 0;
    let recall100 = 0;
    for (const q of queries) {
      // A test query no document is relevant for scores 0 whatever the ranking (it still counts in n).
      if (!q.relevant.size) continue;
      const hits = top(q);
      const head = await rerank(q.text, hits.slice(0, retrieveK));
      const ranked = [...head, ...hits.slice(retrieveK)].map((s) => s.chunk.sourceDocId);
      const judged = q.judged;
      ndcg10 += ndcgAt(10, ranked, judged);
      ndcg5 += ndcgAt(5, ranked, judged);
      recall100 += recallAt(100, ranked, judged);
    }
    const n = Math.max(1, queries.length);
    return { ndcg10: ndcg10 / n, ndcg5: ndcg5 / n, recall100: recall100 / n, queries: queries.length };
  }

  return {
    bm25: (queries) => measure(queries, (_q, c) => c),
    reordered: measure,
    async promoted(queries) {
      if (!collector) throw new Error('measuring the promoted model needs a collector');
      // A fresh client per evaluation: it fetches the model promoted now, as a restarted demo would.
      const errors: Error[] = [];
      const reranker = promotedReranker({
        endpoint: collector.endpoint,
        serverKey: collector.serverKey,
        refreshMs: Number.POSITIVE_INFINITY,
        onError: (e) => errors.push(e),
        embedder,
      });
      // Fetched before ranking, so that the version is known over no queries too (an empty validation share).
      await reranker.refresh();
      const metrics = await measure(queries, async (q, c) => (await reranker.rerank(q, c)).ranked);
      return { metrics, version: reranker.version, errors };
    },
    model: (model, queries) =>
      measure(queries, async (q, c) => {
        const byId = new Map(c.map((s) => [s.chunk.chunkId, s]));
        const candidates = c.map((s) => ({
          chunkId: s.chunk.chunkId,
          sourceDocId: s.chunk.sourceDocId,
          text: passage(s.chunk),
          score: s.score,
        }));
        const vectors =
          embedder && usesEmbeddings(model) && model.embedder === embedder.id
            ? await embedder.embed([q, ...candidates.map((x) => x.text)]).then(([query, ...rest]) => ({ query: query!, chunks: rest }))
            : undefined;
        return rerankWithModel(model, q, candidates, vectors).map((r) => byId.get(r.chunkId)!);
      }),
  };
}
