/**
 * The reranker's features for one candidate of one query. Every feature is defined for a query
 * no one has asked before: retrieval's own view (score, rank), lexical coverage, what confirmed
 * judgements say about the chunk and its document (smoothed, so one vote is not a verdict), how
 * users engaged with the chunk once position bias is divided out, and a memory of judged queries
 * consulted by their similarity to this one. Embedding features exist only with an embedder.
 */
import { cosine } from '../embedder.ts';
import { terms } from '../terms.ts';
import type { Candidate } from './candidate.ts';
import { chunkTerms } from './chunk-terms.ts';

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

/** Pseudo-impressions at the base rate added to each chunk's engagement: a few clicks move it a little. */
const ENGAGEMENT_SMOOTHING = 20;
/** A judgement of another chunk of the same document counts this much of a judgement of the chunk itself. */
const SAME_DOCUMENT = 0.5;

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
  /** [engagements weighted by 1 / examination probability, impressions]. */
  engagement(chunkId: string): readonly [number, number];
  /** Engagements per impression over all chunks: what "ordinary" means. */
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

export const queryView = (query: string, vector?: Float32Array): QueryView => ({ terms: new Set(terms(query)), vector });

/** Cosine of two term sets as binary vectors. */
export function termCosine(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (large.has(t)) shared++;
  return shared / Math.sqrt(a.size * b.size);
}

const logOdds = ([relevant, notRelevant]: readonly [number, number]) => Math.log((relevant + 1) / (notRelevant + 1));

function bestMatch(q: QueryView, entries: readonly Remembered[], relevance: 0 | 1, byVector: boolean): number {
  let best = 0;
  for (const e of entries) {
    if (e.relevance !== relevance) continue;
    const sim = byVector ? (q.vector && e.vector?.length === q.vector.length ? cosine(q.vector, e.vector) : 0) : termCosine(q.terms, e.terms);
    if (sim > best) best = sim;
  }
  return best;
}

/**
 * Feature rows for a candidate list, in `names` order. `chunkVectors` (one per candidate) and the
 * query's vector are needed only for the embedding features.
 */
export function featureRows(
  names: readonly string[],
  q: QueryView,
  candidates: readonly Candidate[],
  evidence: Evidence,
  chunkVectors?: readonly Float32Array[],
): number[][] {
  const scores = candidates.map((c) => c.score);
  const known = scores.every((s) => typeof s === 'number');
  const max = known ? Math.max(...(scores as number[])) : 0;
  const min = known ? Math.min(...(scores as number[])) : 0;
  return candidates.map((c, i) => {
    const doc = c.sourceDocId ?? c.chunkId;
    const value = (name: string): number => {
      switch (name) {
        case 'retrieval_score':
          return known ? (max > min ? ((c.score as number) - min) / (max - min) : 1) : 0;
        case 'retrieval_rank':
          return 1 / Math.log2(i + 2);
        case 'query_coverage': {
          if (q.terms.size === 0) return 0;
          const own = chunkTerms(c);
          let hits = 0;
          for (const t of q.terms) if (own.has(t)) hits++;
          return hits / q.terms.size;
        }
        case 'memory_relevant':
          return Math.max(bestMatch(q, evidence.remembered(c.chunkId), 1, false), SAME_DOCUMENT * bestMatch(q, evidence.rememberedOfDocument(doc), 1, false));
        case 'memory_not_relevant':
          return bestMatch(q, evidence.remembered(c.chunkId), 0, false);
        case 'chunk_prior':
          return logOdds(evidence.chunk(c.chunkId));
        case 'document_prior':
          return logOdds(evidence.document(doc));
        case 'engagement': {
          const base = evidence.baseRate;
          if (base <= 0) return 0;
          const [engaged, shown] = evidence.engagement(c.chunkId);
          return Math.log((engaged + ENGAGEMENT_SMOOTHING * base) / (shown + ENGAGEMENT_SMOOTHING) / base);
        }
        case 'embedding_similarity':
          return q.vector && chunkVectors?.[i]?.length ? cosine(q.vector, chunkVectors[i]) : 0;
        case 'memory_embedding':
          return bestMatch(q, evidence.remembered(c.chunkId), 1, true);
        default:
          throw new Error(`unknown reranker feature ${name}`);
      }
    };
    return names.map(value);
  });
}
