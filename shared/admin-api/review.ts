/** What `GET /v1/admin/review` and `/review/:id/traces` answer: one shape for the collector and the console. */

/** One trace behind a review item: what it contributed, and the answer it came from. */
export interface ReviewItemTrace {
  traceId: string;
  candidate: 'negative' | 'positive';
  weight: number;
  evidence: string[];
  rank: number;
  score: number;
  guess: string;
  guessWhy: string;
  /** Null once the trace itself is gone (retention, erasure). */
  query: string | null;
  createdAt: number | null;
  /** The trace's confidence-weighted score. */
  weightedScore: number | null;
}
