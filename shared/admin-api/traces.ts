import type { QualityDimension } from '../quality-dimensions.ts';
/** What `GET /v1/admin/worst-traces` and `/traces/:traceId` answer: one shape for the collector and the console. */

/** One answer of the worst-traces list. */
export interface WorstTrace {
  traceId: string;
  query: string;
  createdAt: number;
  knowledgeBase: string | null;
  intent: string | null;
  model: string | null;
  /** The seed's avg(signal_value) of the live signals. */
  score: number | null;
  /** Mean value weighted by confidence, trusted signals only: what the list is ranked by. */
  weightedScore: number;
  /** Mean confidence of its scored signals. */
  confidence: number | null;
  signals: number;
  trustedSignals: number;
  explicitSignals: number;
  implicitSignals: number;
  /** Chunk ids the model saw, in rank order. */
  chunkIds: string[];
}

/** One line of a trace's preliminary diagnosis, worded by the console. */
export type Finding =
  | { kind: 'no_chunks' }
  | { kind: 'correction_in_chunk' | 'correction_partial'; chunkId: string; rank: number; overlap: number; cited: boolean }
  | { kind: 'correction_not_retrieved'; overlap: number }
  | { kind: 'reranker_demoted'; chunkId: string; from: number; to: number | null }
  | { kind: 'flagged_source'; chunkId: string; rank: number | null }
  | { kind: 'rewrite_drift'; overlap: number }
  | { kind: 'failed_dimension'; dimension: QualityDimension }
  | { kind: 'attributed_elsewhere' | 'attributed_here' | 'low_confidence'; count: number }
  | { kind: 'no_finding' };
