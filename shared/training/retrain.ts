/**
 * One retraining, as the nightly job and `npm run retrain` both run it: refuse a batch that is too
 * small or dominated by one source, train, evaluate retrieval's order, the current model and the
 * candidate on the held-out eval sets, and let the gate decide.
 */

import type { Candidate } from '../reranker/candidate.ts';
import type { RerankerModel } from '../reranker/model.ts';
import { rerankWithModel, usesEmbeddings } from '../reranker/rerank.ts';
import type { LoopSettings } from '../schema/settings.ts';
import type { TrainingData } from './data.ts';
import { dominantOrigin } from './dominance.ts';
import {
  DEFAULT_GATE,
  decide,
  decidingRows,
  type EvalQuery,
  type Evaluation,
  type GateDecision,
  type Ranker,
  retrievalOrder,
  scoreQueries,
  summarize,
} from './gate.ts';
import { reasonOf } from './gate-findings.ts';
import { consolidate, type EmbeddingVectors, trainReranker } from './train.ts';

export interface RetrainInput {
  data: TrainingData;
  evalQueries: EvalQuery[];
  /** The promoted model, or null while retrieval's order is what users get. */
  current: RerankerModel | null;
  settings: LoopSettings;
  version: string;
  now: number;
  vectors?: EmbeddingVectors;
  /**
   * Ranks eval queries (with `vectors`, in Node with an embedder); lexical ranking otherwise. A
   * served model's embedding features count as computed only with `vectors` of its own embedder.
   */
  rankWith?: (model: RerankerModel) => Ranker;
}

export type RetrainOutcome =
  | { trained: false; reason: string; confirmed: number }
  | {
      trained: true;
      model: RerankerModel;
      confirmed: number;
      evaluation: { retrieval: Evaluation; current: Evaluation; candidate: Evaluation };
      decision: GateDecision;
    };

const lexicalRanker =
  (model: RerankerModel): Ranker =>
  (q: string, c: readonly Candidate[]) =>
    rerankWithModel(model, q, c).map((r) => r.chunkId);

export function retrain(input: RetrainInput): RetrainOutcome {
  const { data, settings } = input;
  const confirmed = consolidate(data.confirmed).length;
  if (confirmed < settings.trainingMinConfirmed)
    return { trained: false, confirmed, reason: `${confirmed} confirmed examples; training needs at least ${settings.trainingMinConfirmed}` };
  const dominant = dominantOrigin(data.confirmed, settings.trainingMaxShareOneOrigin);
  if (dominant)
    return {
      trained: false,
      confirmed,
      reason: `one ${dominant.kind} (${dominant.id}) raised ${Math.round(dominant.share * 100)}% of the batch; at most ${Math.round(settings.trainingMaxShareOneOrigin * 100)}% may come from one source`,
    };
  const { model } = trainReranker(data, { version: input.version, now: input.now, vectors: input.vectors });
  const rankWith = input.rankWith ?? lexicalRanker;
  const byRetrieval = scoreQueries(retrievalOrder, input.evalQueries);
  const byCurrent = input.current ? scoreQueries(rankWith(input.current), input.evalQueries) : byRetrieval;
  const byCandidate = scoreQueries(rankWith(model), input.evalQueries);
  const [retrieval, current, candidate] = [byRetrieval, byCurrent, byCandidate].map(summarize) as [Evaluation, Evaluation, Evaluation];
  const gate = { ...DEFAULT_GATE, minGain: settings.gateMinGain, layerTolerance: settings.gateLayerTolerance };
  const paired = byCandidate.map((q, i) => ({ ...q, ndcg5: q.ndcg5 - byCurrent[i]!.ndcg5 }));
  const gains = decidingRows(paired, candidate, gate).map((q) => q.ndcg5);
  const decision = decide(candidate, current, gate, gains);
  // Without its embedder's vectors, a model that uses embeddings loses those features (they sit at
  // their mean): it would be judged well below what users get, and any candidate would seem to beat
  // it. A ranker given is no proof of vectors: `npm run retrain` passes one with or without them.
  if (input.current && usesEmbeddings(input.current) && !(input.vectors && input.vectors.embedder === input.current.embedder)) {
    const finding = { kind: 'current_not_comparable' as const, version: input.current.version };
    return {
      trained: true,
      model,
      confirmed,
      evaluation: { retrieval, current, candidate },
      decision: { promote: false, findings: [finding], reasons: [reasonOf(finding)] },
    };
  }
  return { trained: true, model, confirmed, evaluation: { retrieval, current, candidate }, decision };
}
