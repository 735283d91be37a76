/**
 * The reranker's features for one candidate of one query. Every feature is defined for a query
 * no one has asked before: retrieval's own view (score, rank), lexical coverage, what confirmed
 * judgements say about the chunk and its document (smoothed, so one vote is not a verdict), how
 * users engaged with the chunk once position bias is divided out, and a memory of judged queries
 * consulted by their similarity to this one. Embedding features exist only with an embedder.
 */
import { cosine } from '../embedder.ts';
import { questionTerms } from '../terms.ts';
import type { Candidate } from './candidate.ts';
import { chunkTermIds, hasTerm, queryTermIds } from './chunk-terms.ts';

export const LEXICAL_FEATURES = [
  'retrieval_score',
  'retrieval_rank',
  'query_coverage',
  'memory_relevant',
  'memory_not_relevant',
  'chunk_prior',
  'document_prior',
  'engagement',
] as const;
export const EMBEDDING_FEATURES = ['embedding_similarity', 'memory_embedding'] as const;
export type FeatureName = (typeof LEXICAL_FEATURES)[number] | (typeof EMBEDDING_FEATURES)[number];

/** Pseudo-impressions (examined) at the prior rate added to engagement: a few clicks move it a little. */
const ENGAGEMENT_SMOOTHING = 20;
/** A judgement of another chunk of the same document counts this much of a judgement of the chunk itself. */
const SAME_DOCUMENT = 0.5;
/** Counts of nothing seen: shared by every lookup that finds none, so frozen. */
export const NO_COUNTS: readonly [number, number] = Object.freeze([0, 0] as const);

/** A judged query, as the memory holds it. */
export interface Remembered {
  terms: ReadonlySet<string>;
  vector?: Float32Array;
  relevance: 0 | 1;
}

/** Where feature values come from: a trained model, or the training data minus the query being trained on. */
export interface Evidence {
  /** [relevant, not relevant] weighted counts of confirmed judgements. */
  chunk(chunkId: string): readonly [number, number];
  document(docId: string): readonly [number, number];
  /** [engagements, impressions weighted by their rank's examination probability]. */
  engagement(chunkId: string): readonly [number, number];
  /** The same summed over a document's chunks. */
  documentEngagement(docId: string): readonly [number, number];
  /** Engagements per examined impression over all chunks: what "ordinary" means. */
  readonly baseRate: number;
  /** Judged queries about this chunk, and about other chunks of this document. */
  remembered(chunkId: string): readonly Remembered[];
  rememberedOfDocument(docId: string): readonly Remembered[];
}

/** The query's side, computed once per call. */
export interface QueryView {
  terms: ReadonlySet<string>;
  vector?: Float32Array;
}

/** The query's side as features read it: what it asks (terms.ts `questionTerms`), so the same question pushed back on matches its memory. */
export const queryView = (query: string, vector?: Float32Array): QueryView => ({ terms: new Set(questionTerms(query)), vector });

/** Cosine of two term sets as binary vectors. */
export function termCosine(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  // Two names, not a destructured pair: this runs per remembered query of every candidate.
  const aSmaller = a.size <= b.size;
  const small = aSmaller ? a : b;
  const large = aSmaller ? b : a;
  for (const t of small) if (large.has(t)) shared++;
  return shared / Math.sqrt(a.size * b.size);
}

const logOdds = (counts: readonly [number, number]) => Math.log((counts[0] + 1) / (counts[1] + 1));

function bestMatch(q: QueryView, entries: readonly Remembered[], relevance: 0 | 1, byVector: boolean): number {
  let best = 0;
  for (const e of entries) {
    if (e.relevance !== relevance) continue;
    const sim = byVector ? (q.vector && e.vector?.length === q.vector.length ? cosine(q.vector, e.vector) : 0) : termCosine(q.terms, e.terms);
    if (sim > best) best = sim;
  }
  return best;
}

/** One feature's value for candidate `i` of the list. */
export type Extractor = (c: Candidate, i: number) => number;

/**
 * Feature rows for a candidate list, in `names` order. `chunkVectors` (one per candidate) and the
 * query's vector are needed only for the embedding features. With `only`, rows are computed for
 * those positions alone (training needs the judged few), though list-wide figures such as the
 * score range still come from the whole list.
 */
export function featureRows(
  names: readonly string[],
  q: QueryView,
  candidates: readonly Candidate[],
  evidence: Evidence,
  chunkVectors?: readonly Float32Array[],
  only?: readonly number[],
): number[][] {
  const columns = featureColumns(names, q, candidates, evidence, chunkVectors);
  const positions = only ?? candidates.map((_, i) => i);
  return positions.map((i) => {
    const c = candidates[i]!;
    const row = new Array<number>(columns.length);
    for (let f = 0; f < columns.length; f++) row[f] = columns[f]!(c, i);
    return row;
  });
}

/**
 * The extractors of `names` for one query and candidate list (list-wide figures computed once).
 * Use them before the next call: term ids may start again there (chunk-terms.ts).
 */
export function featureColumns(
  names: readonly string[],
  q: QueryView,
  candidates: readonly Candidate[],
  evidence: Evidence,
  chunkVectors?: readonly Float32Array[],
): Extractor[] {
  let known = true;
  let max = Number.NEGATIVE_INFINITY;
  let min = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    if (typeof c.score !== 'number') known = false;
    else {
      if (c.score > max) max = c.score;
      if (c.score < min) min = c.score;
    }
  }
  const base = evidence.baseRate;
  const queryIds = names.includes('query_coverage') ? queryTermIds(q.terms) : new Uint32Array(0);
  const extractors: Record<string, Extractor> = {
    // Halves first: the same ratio exactly, and no overflow to Infinity between scores near ±1e308.
    retrieval_score: (c) => (known ? (max > min ? ((c.score as number) / 2 - min / 2) / (max / 2 - min / 2) : 1) : 0),
    retrieval_rank: (_c, i) => 1 / Math.log2(i + 2),
    query_coverage: (c) => {
      if (queryIds.length === 0) return 0;
      const own = chunkTermIds(c);
      let hits = 0;
      for (let k = 0; k < queryIds.length; k++) if (hasTerm(own, queryIds[k]!)) hits++;
      return hits / queryIds.length;
    },
    memory_relevant: (c) =>
      Math.max(
        bestMatch(q, evidence.remembered(c.chunkId), 1, false),
        SAME_DOCUMENT * bestMatch(q, evidence.rememberedOfDocument(c.sourceDocId ?? c.chunkId), 1, false),
      ),
    memory_not_relevant: (c) => bestMatch(q, evidence.remembered(c.chunkId), 0, false),
    chunk_prior: (c) => logOdds(evidence.chunk(c.chunkId)),
    document_prior: (c) => logOdds(evidence.document(c.sourceDocId ?? c.chunkId)),
    engagement: (c) => {
      if (base <= 0) return 0;
      const own = evidence.engagement(c.chunkId);
      const engaged = own[0];
      const examined = own[1];
      // The document's other chunks are the chunk's prior, the project's rate theirs.
      const doc = c.sourceDocId === undefined ? NO_COUNTS : evidence.documentEngagement(c.sourceDocId);
      const prior = (Math.max(0, doc[0] - engaged) + ENGAGEMENT_SMOOTHING * base) / (Math.max(0, doc[1] - examined) + ENGAGEMENT_SMOOTHING);
      return Math.log((engaged + ENGAGEMENT_SMOOTHING * prior) / (examined + ENGAGEMENT_SMOOTHING) / base);
    },
    // An empty vector, the query's or the chunk's, is one of zeros: like nothing, not another model's.
    embedding_similarity: (_c, i) => (q.vector?.length && chunkVectors?.[i]?.length ? cosine(q.vector, chunkVectors[i]) : 0),
    memory_embedding: (c) => bestMatch(q, evidence.remembered(c.chunkId), 1, true),
  };
  return names.map((name) => {
    const f = extractors[name];
    if (!f) throw new Error(`unknown reranker feature ${name}`);
    return f;
  });
}
