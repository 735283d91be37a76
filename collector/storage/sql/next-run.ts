/**
 * The list of answers something outside the nightly job changed and the next run must look at
 * again: others' answers an erasure rescored (a signal moved back onto them, or one moved onto
 * the erased answer gone), whose review items, days and documents only the job recounts. Kept in
 * `loop_touched` under this night, before every night a run has: the next run's prepare takes
 * them into its own lists and clears it; retention leaves it alone.
 */
export const NEXT_RUN_NIGHT = '';
