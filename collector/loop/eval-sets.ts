import { DAY_MS } from '../../shared/time.ts';
/**
 * Eval sets in the seed's layers (002, 3.3): echo (real queries with labels from review and clear
 * explicit feedback), variant (the paraphrases users typed, with the same labels) and conflict
 * (queries whose feedback is split). Only held-out queries go in, so no model is ever judged on
 * a query it was trained on; the split is by query key, fixed for the life of the project.
 */
export const EVAL_LAYERS = ['echo', 'variant', 'conflict', 'replay'] as const;
export type EvalLayer = (typeof EVAL_LAYERS)[number];

/** Share of query keys held out of training for evaluation. */
export const HELD_OUT_SHARE = 0.3;
/** Items per layer at most (seed 002: 500 to 2,000). */
export const MAX_EVAL_ITEMS = 2_000;
/** The replay layer's size: historical answers with clear feedback, for comparing versions. */
export const REPLAY_ITEMS = 500;
/**
 * Replay takes answers clearly good or bad by the project's lines and scored at least this far
 * from neutral: an answer a lone click or a glance scored says too little to compare versions on.
 */
export const REPLAY_MIN_SCORE = 0.5;

/**
 * Whether a reviewer's verdict is too contested for an eval set, which needs labels it can trust
 * (seed 002, 3.3: high-confidence samples only). A verdict stands when it agrees with how the item
 * was mined (a chunk users engaged with on good answers judged relevant; one from a bad answer,
 * not relevant), or when the users' own clear feedback on the pair backs it. Otherwise it is one
 * person against what users did, and the gate does not score models on it (answers on held-out
 * questions never train either way). The reason is measured: on a hard question nearly every item
 * is mined as a hard negative, so a reviewer's occasional slip makes up most of its "relevant" labels.
 */
export function isDisputed(verdict: 0 | 1, minedAs: 'positive' | 'negative', feedback: 0 | 1 | undefined): boolean {
  const mined = minedAs === 'positive' ? 1 : 0;
  return verdict !== mined && verdict !== feedback;
}

/** FNV-1a with murmur3's finaliser: a stable, well-spread 32-bit hash, so the split needs no storage. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Whether a query (by its key) belongs to evaluation rather than training. */
export const isHeldOut = (queryKey: string): boolean => hash32(queryKey) / 2 ** 32 < HELD_OUT_SHARE;

/** The ISO week a day falls in, `YYYY-Www`: eval sets are refreshed weekly and frozen per week. */
export function isoWeek(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  // The week's Thursday decides its year; weeks count from that year's first Thursday.
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) + 3);
  const year = d.getUTCFullYear();
  const week = 1 + Math.floor((d.getTime() - Date.UTC(year, 0, 1)) / DAY_MS / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}
