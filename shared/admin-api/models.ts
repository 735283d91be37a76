/** What `GET /v1/admin/models` answers: one shape for the collector and the console. */

/** One trained model with the gate's evaluation and decision. */
export interface ModelSummary {
  version: string;
  createdAt: number;
  trainedBy: 'nightly' | 'retrain';
  bytes: number;
  confirmed: number;
  comparedWith: string | null;
  /** As the gate recorded it: `{ retrieval, current, candidate }`, each `{ overall, layers }`. */
  evaluation: Record<string, unknown>;
  decision: 'promoted' | 'rejected';
  reasons: string[];
  /** Whether users get this model now. */
  current: boolean;
}

export interface ModelRegistry {
  /** The version users get, or null for retrieval's order. */
  current: string | null;
  models: ModelSummary[];
}
