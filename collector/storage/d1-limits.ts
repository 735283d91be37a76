/**
 * D1 queries one Worker invocation runs at most: Cloudflare's limit on Workers Paid, 1,000, less
 * room for the request around the work (its key's lookup). The nightly job and erasure stop
 * between their batches before they reach it.
 */
export const INVOCATION_QUERIES = 990;
