/** How many D1 queries the nightly job may run in one Worker invocation (Cloudflare limits them). */
import { INVOCATION_QUERIES } from '../storage/d1-limits.ts';

/**
 * The job's budget is `INVOCATION_QUERIES` unless NIGHTLY_QUERY_BUDGET sets another (a lower one
 * leaves room for other work); Workers Free's 50 is below MIN_QUERY_BUDGET.
 */
export const DEFAULT_QUERY_BUDGET = INVOCATION_QUERIES;

/**
 * The most D1 queries one slice and saving it may run, with room to spare (a test holds every
 * stage's slices under it): a slice starts only while this many are left, so none is cut off.
 */
export const SLICE_QUERY_RESERVE = 60;

/**
 * Queries to start or resume a project's run (taking its lease, which starts it if need be, then
 * its settings) and, after its slices, save it after a failure and let go of its lease. A project
 * another invocation holds takes two (the lease refused, and who holds it) and nothing after.
 */
export const PROJECT_START_QUERIES = 4;

/** The least budget that starts a night and runs a slice of it: listing the projects and whose night is done, one start, one slice. */
export const MIN_QUERY_BUDGET = 2 + PROJECT_START_QUERIES + SLICE_QUERY_RESERVE;
