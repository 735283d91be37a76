/**
 * Ranking with a trained model: pure TypeScript with no Node or DOM APIs, so a backend gets the
 * same order in Node and in a Worker. Embedding features need vectors from the embedder the model
 * was trained with; without them those features sit at their training mean (contributing nothing).
 */
import type { Candidate, Reranked } from './candidate.ts';
import { EMBEDDING_FEATURES, featureRows, queryView } from './features.ts';
import type { RerankerModel } from './model.ts';
import { modelEvidence } from './model-evidence.ts';
import { linearScores, orderByScore } from './score.ts';

export interface Vectors {
  query: Float32Array;
  /** One per candidate, in the candidates' order. */
  chunks: readonly Float32Array[];
}

const evidenceCache = new WeakMap<RerankerModel, ReturnType<typeof modelEvidence>>();

/** Whether the model has features that only an embedder can compute. */
export const usesEmbeddings = (model: RerankerModel): boolean => model.features.some((f) => (EMBEDDING_FEATURES as readonly string[]).includes(f));

export function rerankWithModel<C extends Candidate>(model: RerankerModel, query: string, candidates: readonly C[], vectors?: Vectors): Reranked<C>[] {
  let evidence = evidenceCache.get(model);
  if (!evidence) evidenceCache.set(model, (evidence = modelEvidence(model)));
  const rows = featureRows(model.features, queryView(query, vectors?.query), candidates, evidence, vectors?.chunks);
  if (!vectors) {
    // Missing embedding features take their mean, so they add nothing either way.
    for (const [f, name] of model.features.entries())
      if ((EMBEDDING_FEATURES as readonly string[]).includes(name)) for (const row of rows) row[f] = model.mean[f]!;
  }
  const scores = linearScores(rows, model.weights, model.mean, model.scale);
  return orderByScore(scores).map((i) => ({ ...candidates[i]!, rerankScore: scores[i]!, retrievalRank: i + 1 }));
}
