import * as v from 'valibot';

/** The review budget's bounds: from a minute to a week's minutes a week, from a second to an hour an item. */
export const MIN_REVIEW_MINUTES_PER_WEEK = 1;
export const MAX_REVIEW_MINUTES_PER_WEEK = 7 * 24 * 60;
export const MIN_SECONDS_PER_REVIEW_ITEM = 1;
export const MAX_SECONDS_PER_REVIEW_ITEM = 3600;

/** A project's loop settings; absent fields keep their defaults. */
const settingsEntries = {
  /** Days raw events and traces are kept before the nightly job purges them (seed 002, 5.3: 90). */
  retentionDays: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3650)), 90),
  /** Days daily aggregates and health snapshots are kept (seed 002, 5.3: two years). */
  aggregateRetentionDays: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(36_500)), 730),
  /** Reviewer time per week the queue is sized for (seed 000: under 30 minutes a week). */
  reviewMinutesPerWeek: v.optional(v.pipe(v.number(), v.minValue(MIN_REVIEW_MINUTES_PER_WEEK), v.maxValue(MAX_REVIEW_MINUTES_PER_WEEK)), 30),
  /**
   * Seconds one review item takes: a query, one chunk and one question ("does this chunk help
   * answer this query?") read and answered by keyboard; 20 s is a careful reader's pace.
   */
  secondsPerReviewItem: v.optional(v.pipe(v.number(), v.minValue(MIN_SECONDS_PER_REVIEW_ITEM), v.maxValue(MAX_SECONDS_PER_REVIEW_ITEM)), 20),
  /** Training examples (confirmed items on questions not held out for the eval sets) at which training is ready (seed 000: never fewer than 30). */
  trainingMinConfirmed: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000)), 30),
  /**
   * Days between retrainings (seed 000: on a schedule, weekly is a reasonable start, never per
   * event); 0 when retraining runs outside the nightly job, for example `npm run retrain` with
   * embedding features, which a Worker cannot compute.
   */
  retrainEveryDays: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(365)), 7),
  /** nDCG@5 a candidate must gain over the current model on the held-out eval sets to be promoted. */
  gateMinGain: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 0.005),
  /** nDCG@5 any one eval layer may lose for the candidate still to be promoted. */
  gateLayerTolerance: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 0.02),
  /** A training batch with more than this share of its examples from one session, user or IP is refused. */
  trainingMaxShareOneOrigin: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 0.3),
  /** A trace whose confidence-weighted score is below this is "bad" (seed 000: `< -0.3`, "only mine from clearly bad traces"). */
  badTraceScore: v.optional(v.pipe(v.number(), v.minValue(-1), v.maxValue(1)), -0.3),
  /** A trace whose confidence-weighted score is at or above this is "good": its cited chunks are positive candidates. */
  goodTraceScore: v.optional(v.pipe(v.number(), v.minValue(-1), v.maxValue(1)), 0.3),
};

/**
 * The settings as `PUT /v1/admin/settings` takes them. The PUT replaces them all, so an unknown
 * key (a misspelt setting) is refused rather than dropped, which would reset the setting meant.
 */
export const LoopSettingsSchema = v.pipe(
  v.strictObject(settingsEntries),
  v.forward(
    v.partialCheck(
      [['badTraceScore'], ['goodTraceScore']],
      (s) => s.goodTraceScore >= s.badTraceScore,
      'Invalid value: must be at least badTraceScore, since an answer cannot be both bad and good',
    ),
    ['goodTraceScore'],
  ),
  v.forward(
    v.partialCheck(
      [['retentionDays'], ['aggregateRetentionDays']],
      (s) => s.aggregateRetentionDays >= s.retentionDays,
      'Invalid value: must be at least retentionDays, since aggregates are counted from the raw rows',
    ),
    ['aggregateRetentionDays'],
  ),
  // Counted in nights, and the job retrains at most once a night: half a day would plan twice
  // the retrainings it can meet. On the PUT alone, so settings stored before still read.
  v.forward(
    v.partialCheck([['retrainEveryDays']], (s) => Number.isInteger(s.retrainEveryDays), 'Invalid value: must be a whole number of days'),
    ['retrainEveryDays'],
  ),
  // Any origin of a batch holds more than no share of it: 0 would refuse every training (1 allows any).
  // On the PUT alone, so settings stored before still read.
  v.forward(
    v.partialCheck([['trainingMaxShareOneOrigin']], (s) => s.trainingMaxShareOneOrigin > 0, 'Invalid value: must be above 0, which would refuse every batch'),
    ['trainingMaxShareOneOrigin'],
  ),
);

/**
 * The settings as stored, read without the PUT's rules: settings saved before a rule existed, or
 * holding a setting since removed, keep their other values instead of falling back to defaults.
 */
export const StoredLoopSettingsSchema = v.object(settingsEntries);

export type LoopSettings = v.InferOutput<typeof LoopSettingsSchema>;
export type LoopSettingsInput = v.InferInput<typeof LoopSettingsSchema>;

/** Every setting at its default. */
export const DEFAULT_LOOP_SETTINGS: LoopSettings = v.parse(LoopSettingsSchema, {});

/** Review items one week's budget clears. */
export const weeklyReviewCapacity = (s: LoopSettings): number => Math.max(1, Math.floor((s.reviewMinutesPerWeek * 60) / s.secondsPerReviewItem));
