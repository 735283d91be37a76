/**
 * Ranking with a trained model: pure TypeScript with no Node or DOM APIs, so a backend gets the
 * same order in Node and in a Worker. Embedding features need vectors from the embedder the model
 * was trained with; without them those features sit at their training mean (contributing nothing).
 * Reviewers' verdicts on the question itself come before the model's weights (`ownVerdicts`).
 */
import type { Candidate, Reranked } from './candidate.ts';
import { EMBEDDING_FEATURES, type Evidence, featureColumns, type QueryView, queryView, SAME_QUESTION, termCosine } from './features.ts';
import type { RerankerModel } from './model.ts';
import { modelEvidence } from './model-evidence.ts';
import { orderByScore } from './score.ts';

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
  const q = queryView(query, vectors?.query);
  const columns = featureColumns(model.features, q, candidates, evidence, vectors?.chunks);
  // The linear model folded into one coefficient per feature and a constant; features that
  // cannot be computed (embeddings without vectors) sit at their mean and drop out.
  const used: number[] = [];
  const coef: number[] = [];
  for (const [f, name] of model.features.entries()) {
    if (!vectors && (EMBEDDING_FEATURES as readonly string[]).includes(name)) continue;
    used.push(f);
    coef.push(model.weights[f]! / model.scale[f]!);
  }
  const scores = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    let s = 0;
    for (let k = 0; k < used.length; k++) {
      const f = used[k]!;
      s += coef[k]! * (columns[f]!(c, i) - model.mean[f]!);
    }
    scores[i] = s;
  }
  // Verdicts lift or drop a chunk by more than the list's spread: the model orders within each tier.
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const s of scores) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const tierStep = max - min + 1;
  for (let i = 0; i < candidates.length; i++) {
    const tier = ownVerdicts(evidence, q, candidates[i]!);
    if (tier !== 0) scores[i]! += tier * tierStep;
  }
  return orderByScore(scores).map((i) => ({ ...candidates[i]!, rerankScore: scores[i]!, retrievalRank: i + 1 }));
}

/**
 * What reviewers said of this chunk for this very question (its words, or a rewording at
 * SAME_QUESTION): 1 if judged relevant more often than not, -1 if not relevant more often, else 0.
 * The learned memory weighs judgements of *other* questions (training leaves a question's own out,
 * so its weight says how far verdicts transfer); a verdict on the question asked again is the loop's
 * plainest lesson, and it holds whatever that weight is: an answer a reviewer fixed stays fixed.
 */
function ownVerdicts(evidence: Evidence, q: QueryView, c: Candidate): -1 | 0 | 1 {
  let net = 0;
  for (const e of evidence.remembered(c.chunkId)) if (termCosine(q.terms, e.terms) >= SAME_QUESTION) net += e.relevance === 1 ? 1 : -1;
  return net > 0 ? 1 : net < 0 ? -1 : 0;
}
