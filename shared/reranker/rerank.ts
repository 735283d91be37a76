/**
 * Ranking with a trained model: pure TypeScript with no Node or DOM APIs, so a backend gets the
 * same order in Node and in a Worker. Embedding features need vectors from the embedder the model
 * was trained with; without them those features sit at their training mean (contributing nothing).
 */
import type { Candidate, Reranked } from './candidate.ts';
import { EMBEDDING_FEATURES, type Extractor, featureColumns, queryView } from './features.ts';
import type { RerankerModel } from './model.ts';
import { modelEvidence } from './model-evidence.ts';
import { type Ranking, readOnce } from './ranked-copy.ts';
import { orderByScore } from './score.ts';

export interface Vectors {
  query: Float32Array;
  /** One per candidate, in the candidates' order. */
  chunks: readonly Float32Array[];
}

const evidenceCache = new WeakMap<RerankerModel, ReturnType<typeof modelEvidence>>();

/** Whether the model has features that only an embedder can compute. */
export const usesEmbeddings = (model: RerankerModel): boolean => model.features.some((f) => (EMBEDDING_FEATURES as readonly string[]).includes(f));

/**
 * Why a model's order cannot be used, if it cannot: a score beyond a number, which weights no
 * training writes (an artifact made by hand) can overflow to. Callers keep retrieval's order then.
 */
export function unusableRanking(ranked: readonly { rerankScore: number }[], version: string): Error | undefined {
  return ranked.every((r) => Number.isFinite(r.rerankScore))
    ? undefined
    : new Error(`reranker ${version} scored a chunk beyond a number; retrieval's order kept`);
}

/**
 * The model's ranking of the candidates, best first: each one's score and its place in retrieval's
 * order (`candidates[retrievalRank - 1]`), with nothing of the candidates copied.
 */
export function rankingWithModel(model: RerankerModel, query: string, candidates: readonly Candidate[], vectors?: Vectors): Ranking[] {
  let evidence = evidenceCache.get(model);
  if (!evidence) evidenceCache.set(model, (evidence = modelEvidence(model)));
  const columns = featureColumns(model.features, queryView(query, vectors?.query), candidates, evidence, vectors?.chunks);
  // The linear model folded into one coefficient per feature and a constant; features that
  // cannot be computed (embeddings without vectors) sit at their mean and drop out.
  const used: Extractor[] = [];
  const coef: number[] = [];
  const mean: number[] = [];
  for (const [f, name] of model.features.entries()) {
    if (!vectors && (EMBEDDING_FEATURES as readonly string[]).includes(name)) continue;
    used.push(columns[f]!);
    coef.push(model.weights[f]! / model.scale[f]!);
    mean.push(model.mean[f]!);
  }
  const scores = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    let s = 0;
    for (let k = 0; k < used.length; k++) s += coef[k]! * (used[k]!(c, i) - mean[k]!);
    scores[i] = s;
  }
  return orderByScore(scores).map((i) => ({ rerankScore: scores[i]!, retrievalRank: i + 1, rerankerVersion: model.version }));
}

/**
 * The candidates best first, each a copy with its ranking, whatever its class (see chunkCopy). Each
 * candidate's fields are read once (see readOnce), into what ranking reads over and over.
 */
export function rerankWithModel<C extends Candidate>(model: RerankerModel, query: string, candidates: readonly C[], vectors?: Vectors): Reranked<C>[] {
  const { read, ranked } = readOnce(candidates);
  return ranked(rankingWithModel(model, query, read, vectors));
}
