/** What `GET /v1/admin/models` answers: one shape for the collector and the console. */
import type { GateFinding } from '../training/gate-findings.ts';

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
  /** What the gate found, as data (empty for a model stored before findings were kept: see `reasons`). */
  findings: GateFinding[];
  /** The same in English. */
  reasons: string[];
  /** Whether users get this model now. */
  current: boolean;
}

/** One change to what users get: a promotion or a rollback, by the gate or an admin, with its reason. */
export interface ModelRollout {
  at: number;
  action: 'promote' | 'rollback';
  /** What users got before (null: retrieval's order). */
  from: string | null;
  /** What users got after (null: retrieval's order). */
  to: string | null;
  /**
   * `gate`: the promotion that came with recording the model (`POST /v1/admin/models` with
   * `promote`, as retraining sends it when its gate passed); `admin`: a promotion or rollback since.
   */
  by: 'gate' | 'admin';
  reason: string;
}

export interface ModelRegistry {
  /** The version users get, or null for retrieval's order. */
  current: string | null;
  models: ModelSummary[];
  /** The rollout history, newest first. */
  rollouts: ModelRollout[];
}
