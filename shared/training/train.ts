/**
 * Training: confirmed judgements in, a reranker artifact out. Pure and synchronous, so the nightly
 * job in a Worker and `npm run retrain` in Node run the same code. Embedding features are trained
 * only when the caller brings vectors (Node, with an embedder); otherwise the model is lexical.
 */
import { EMBEDDING_FEATURES, type Evidence, type FeatureName, featureRows, LEXICAL_FEATURES, queryView } from '../reranker/features.ts';
import { MIN_SCALE, RERANKER_FORMAT, type RerankerModel } from '../reranker/model.ts';
import { packVector } from '../reranker/vectors.ts';
import { fnv1a } from '../terms.ts';
import type { CandidateList, Confirmed, TrainingData } from './data.ts';
import { TrainingEvidence } from './evidence.ts';
import { estimateExamination, examinationByVerdict } from './examination.ts';
import { fitPairwise, type Pair } from './pairwise.ts';

/**
 * A candidate nobody judged, ranked against a confirmed positive, counts this much of a judged
 * pair: most unjudged candidates are not relevant, but some are, so they teach gently.
 */
export const UNJUDGED_PAIR_WEIGHT = 0.2;
/** Unjudged candidates considered per positive: the top of the list, where the reranker acts. */
const UNJUDGED_DEPTH = 20;
/** Chunks (and documents) whose engagement the artifact keeps, besides judged ones: the most shown. Bounds its size. */
export const MAX_ENGAGEMENT_CHUNKS = 5_000;

/**
 * The pull towards retrieval's order (pairwise.ts), against the summed loss of every pair: weak
 * once thousands of pairs speak, firm while a few hundred do. Chosen on the validation share of
 * `npm run loop:eval` (SciFact's train queries; 1, 3, 10 and 30 tried on weeks 4-6 of seed 1's
 * training data): the learned weights rank unseen queries better the firmer the pull, up to 30.
 */
export const L2 = 30;

export interface EmbeddingVectors {
  /** The embedder's id, recorded in the artifact. */
  embedder: string;
  /** By query key. */
  queries: ReadonlyMap<string, Float32Array>;
  /** By chunk id and text (`chunkVectorKey`). */
  chunks: ReadonlyMap<string, Float32Array>;
}

/**
 * A chunk vector's key: its id and a hash of its text. A document edited and indexed again keeps
 * its chunk ids, and each list is ranked by the text its trace logged, so by the vector of that text.
 */
export const chunkVectorKey = (c: { chunkId: string; text: string }): string => `${c.chunkId}\u0000${fnv1a(c.text)}`;

export interface TrainOptions {
  version: string;
  now: number;
  vectors?: EmbeddingVectors;
  /** L2 pull towards retrieval's order; see pairwise.ts. */
  l2?: number;
}

/** One verdict per (query, chunk): the majority of the reviewers' answers; a tie says nothing. */
export function consolidate<T extends Pick<Confirmed, 'queryKey' | 'chunkId' | 'relevance'>>(confirmed: readonly T[]): T[] {
  const votes = new Map<string, { item: T; score: number }>();
  for (const c of confirmed) {
    const key = `${c.queryKey}\u0000${c.chunkId}`;
    const v = votes.get(key) ?? { item: c, score: 0 };
    v.score += c.relevance === 1 ? 1 : -1;
    votes.set(key, v);
  }
  return [...votes.values()].filter((v) => v.score !== 0).map((v) => ({ ...v.item, relevance: v.score > 0 ? 1 : 0 }));
}

interface Row {
  x: number[];
  label: 0 | 1 | undefined;
  rank: number;
}

/** Rows for the candidates training pairs up: the judged ones and the unjudged near the top. */
function listRows(
  names: readonly string[],
  list: CandidateList,
  evidence: Evidence,
  vectors: EmbeddingVectors | undefined,
  labels: ReadonlyMap<string, 0 | 1>,
): Row[] {
  const q = queryView(list.query, vectors?.queries.get(list.queryKey));
  const chunkVectors = vectors ? list.candidates.map((c) => vectors.chunks.get(chunkVectorKey(c)) ?? new Float32Array(0)) : undefined;
  const positions = list.candidates.flatMap((c, i) => (labels.has(c.chunkId) || i < UNJUDGED_DEPTH ? [i] : []));
  const rows = featureRows(names, q, list.candidates, evidence, chunkVectors, positions);
  return rows.map((x, j) => ({ x, label: labels.get(list.candidates[positions[j]!]!.chunkId), rank: positions[j]! + 1 }));
}

export interface TrainResult {
  model: RerankerModel;
  /** Pairs the weights were fitted on. */
  pairs: number;
}

export function trainReranker(data: TrainingData, options: TrainOptions): TrainResult {
  const confirmed = consolidate(data.confirmed);
  const examination = examinationByVerdict(confirmed, data.queryEngagement, estimateExamination(data.engagement, data.shownByRank));
  const evidence = new TrainingEvidence(confirmed, data.engagement, data.queryEngagement, examination, options.vectors?.queries, data.shownByRank);
  const names: FeatureName[] = [...LEXICAL_FEATURES, ...(options.vectors ? EMBEDDING_FEATURES : [])];

  const labelsByQuery = new Map<string, Map<string, 0 | 1>>();
  for (const c of confirmed) labelsByQuery.set(c.queryKey, (labelsByQuery.get(c.queryKey) ?? new Map()).set(c.chunkId, c.relevance));

  const lists: Row[][] = [];
  for (const list of data.lists) {
    const labels = labelsByQuery.get(list.queryKey);
    if (!labels) continue;
    lists.push(listRows(names, list, evidence.without(list.queryKey), options.vectors, labels));
  }

  // Standardise on every row seen, so weights are comparable and the L2 pull is fair to each feature.
  const all = lists.flat();
  const mean = names.map((_, f) => (all.length ? all.reduce((s, r) => s + r.x[f]!, 0) / all.length : 0));
  const scale = names.map((_, f) => {
    const variance = all.length ? all.reduce((s, r) => s + (r.x[f]! - mean[f]!) ** 2, 0) / all.length : 0;
    return variance > MIN_SCALE ** 2 ? Math.sqrt(variance) : 1;
  });

  const pairs: Pair[] = [];
  const diff = (a: Row, b: Row) => a.x.map((v, f) => (v - b.x[f]!) / scale[f]!);
  for (const rows of lists) {
    for (const pos of rows.filter((r) => r.label === 1)) {
      for (const other of rows) {
        if (other.label === 0) pairs.push({ diff: diff(pos, other), weight: 1 });
        else if (other.label === undefined && other.rank <= UNJUDGED_DEPTH) pairs.push({ diff: diff(pos, other), weight: UNJUDGED_PAIR_WEIGHT });
      }
    }
  }

  // Before any data the model is retrieval's order: all weight on retrieval's score.
  const prior = names.map((n) => (n === 'retrieval_score' ? 1 : 0));
  const weights = fitPairwise(pairs, prior, { l2: options.l2 ?? L2 });

  return { model: artifact(names, weights, mean, scale, confirmed, evidence, examination, pairs.length, options), pairs: pairs.length };
}

function artifact(
  names: FeatureName[],
  weights: number[],
  mean: number[],
  scale: number[],
  confirmed: readonly Confirmed[],
  evidence: TrainingEvidence,
  examination: number[],
  pairCount: number,
  options: TrainOptions,
): RerankerModel {
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  /** The most examined entries plus the judged ones: the artifact's size grows with judgements, not traffic. */
  const kept = (all: Map<string, [number, number]>, judged: ReadonlySet<string>) =>
    new Map(
      [...all]
        .filter(([id]) => !judged.has(id))
        .sort((a, b) => b[1][1] - a[1][1])
        .slice(0, MAX_ENGAGEMENT_CHUNKS)
        .concat([...all].filter(([id]) => judged.has(id))),
    );
  const engagement = kept(evidence.engagement, new Set(confirmed.map((c) => c.chunkId)));
  const documentEngagement = kept(evidence.documentEngagement, new Set(confirmed.map((c) => c.sourceDocId)));

  const queryIndex = new Map<string, number>();
  const queries: RerankerModel['memory']['queries'] = [];
  const judgements: RerankerModel['memory']['judgements'] = [];
  for (const c of confirmed) {
    let q = queryIndex.get(c.queryKey);
    if (q === undefined) {
      q = queries.length;
      queryIndex.set(c.queryKey, q);
      const vector = options.vectors?.queries.get(c.queryKey);
      queries.push({ terms: [...queryView(c.query).terms], ...(vector ? { vector: packVector(vector) } : {}) });
    }
    judgements.push({ query: q, chunkId: c.chunkId, sourceDocId: c.sourceDocId, relevance: c.relevance });
  }
  const pairs = (m: Map<string, [number, number]>) => Object.fromEntries([...m].map(([k, [a, b]]) => [k, [round(a), round(b)] as [number, number]]));
  return {
    format: RERANKER_FORMAT,
    version: options.version,
    createdAt: options.now,
    features: names,
    weights: weights.map(round),
    mean: mean.map(round),
    scale: scale.map(round),
    priors: { chunks: pairs(evidence.chunks), documents: pairs(evidence.documents) },
    engagement: { baseRate: round(evidence.baseRate), chunks: pairs(engagement), documents: pairs(documentEngagement) },
    memory: { queries, judgements },
    examination: examination.map(round),
    ...(options.vectors ? { embedder: options.vectors.embedder } : {}),
    training: { confirmed: confirmed.length, queries: queryIndex.size, pairs: pairCount },
  };
}
