/** How many D1 queries the nightly job may run in one Worker invocation (Cloudflare limits them). */

/**
 * D1 queries one invocation runs at most: Cloudflare's limit on Workers Paid, 1,000, less room for
 * the request around the job (its key's lookup). On Workers Free (50) set NIGHTLY_QUERY_BUDGET.
 */
export const DEFAULT_QUERY_BUDGET = 990;

/**
 * The most D1 queries one slice and saving it may run, with room to spare (a test holds every
 * stage's slices under it): a slice starts only while this many are left, so none is cut off.
 */
export const SLICE_QUERY_RESERVE = 60;
