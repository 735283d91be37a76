import type { HeldReason } from '../../shared/admin-api/review.ts';

/**
 * Keeps the review queue clearable in the weekly budget (seed 000: "if the queue is growing
 * faster than it's reviewed, your negative-signal threshold is too loose: tighten it"). Items
 * below the mining threshold, or past what a week clears, are held, not dropped, and come back
 * when it relaxes or the queue has room.
 */

/** Relax once the queue is below this share of a week's capacity… */
export const RELAX_BELOW_SHARE = 0.25;
/** …by this factor per night, never below the default. */
export const RELAX_FACTOR = 0.7;
/** The threshold a project starts with: every trusted candidate is worth a look. */
export const DEFAULT_MINING_THRESHOLD = 0;

export interface QueueState {
  /** The threshold in force. */
  threshold: number;
  /** Expected values of the items at or above it waiting for a reviewer, in any order. */
  pendingValues: readonly number[];
  /** Items one week's budget clears. */
  capacity: number;
}

export interface ThresholdChange {
  from: number;
  to: number;
  reason: string;
}

/** The threshold for the next night, or undefined to keep it. */
export function adjustThreshold({ threshold, pendingValues, capacity }: QueueState): ThresholdChange | undefined {
  const pending = pendingValues.length;
  if (pending > capacity) {
    const sorted = [...pendingValues].sort((a, b) => b - a);
    // Keep the week's best: the new bar is the value of the last item the budget still clears.
    const to = sorted[capacity - 1]!;
    if (to > threshold) {
      return { from: threshold, to, reason: `${pending} items wait and the weekly budget clears ${capacity}: tightened to keep the best ${capacity}` };
    }
    return undefined;
  }
  if (pending < capacity * RELAX_BELOW_SHARE && threshold > DEFAULT_MINING_THRESHOLD) {
    const to = threshold * RELAX_FACTOR < 0.01 ? DEFAULT_MINING_THRESHOLD : threshold * RELAX_FACTOR;
    return { from: threshold, to, reason: `only ${pending} items wait for a budget of ${capacity} a week: relaxed` };
  }
  return undefined;
}

/**
 * Why the queue stage holds an item: its question is one no answer is of use for (eval-suite.ts
 * `worthReviewing`), else it is below the threshold `belowThreshold`, else past the week's budget.
 */
export const heldReason = (worthReviewing: boolean, belowThreshold: boolean): HeldReason =>
  !worthReviewing ? 'curated' : belowThreshold ? 'threshold' : 'budget';
