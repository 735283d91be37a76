/** What `GET /v1/admin/chunks` takes and answers: one shape for the collector and the console. */

/** `ctr`: lowest click-through first (shown often, rarely clicked: maybe too generic); `flags`: most wrong-source flags first. */
export const CHUNK_SORTS = ['ctr', 'flags'] as const;
export type ChunkSort = (typeof CHUNK_SORTS)[number];

/**
 * A chunk shown first fewer times than this is left out: a handful of showings says nothing yet
 * about its click-through (the seed's "retrieved often but never clicked").
 */
export const CHUNKS_MIN_SHOWN = 20;
/** Bounds of `minShown` and `limit`, and the list's length by default. */
export const CHUNKS_MAX_MIN_SHOWN = 1_000_000;
export const CHUNKS_MAX_LIMIT = 1_000;
export const CHUNKS_LIMIT = 100;

/** One chunk's use as the nightly job counted it (`chunk_stats`), and the owner of its document. */
export interface ChunkUsage {
  chunkId: string;
  sourceDocId: string;
  /** By the owner rules now stored; null when none matches. */
  owner: string | null;
  /** Answers that retrieved it, at any stage. */
  retrieved: number;
  /** Answers that showed it first (rank 1-3 of their last stage), as a citation the user could click. */
  shown: number;
  /** Trusted citation clicks on it. */
  clicks: number;
  /** clicks / shown; clicks on it from lower ranks count too, so it can pass 1. */
  ctr: number;
  focusedDwells: number;
  copies: number;
  wrongSourceFlags: number;
}
