/**
 * The distinct terms of a chunk, remembered by chunk id: a backend reranks the same hot chunks
 * again and again, and tokenising their text is most of a feature row's cost. Terms are kept as
 * sorted ids in one typed array per chunk: asking whether a chunk has a term then reads a few
 * bytes in a row instead of a hash table of strings, and that lookup is the rest of the cost.
 * Bounded in entries and in bytes (oldest entry out first: cheaper on every hit than
 * least-recently-used, and hot chunks come straight back); an entry whose text changed is recomputed.
 */
import { SizedCache } from '../remember.ts';
import { terms } from '../terms.ts';
import { MAX_CHUNK_TEXT } from '../thresholds.ts';
import type { Candidate } from './candidate.ts';

export const CHUNK_TERMS_CACHE_SIZE = 50_000;
/**
 * Bytes, about, the cached texts and ids may hold (a byte a character, four an id): entries alone
 * did not bound it, and 50,000 chunks of 2,000 characters held 115 MB, more than a Worker's
 * 128 MB leaves beside a model and a night's training data. 50,000 chunks of 120 words fit.
 */
export const CHUNK_TERMS_CACHE_BYTES = 64_000_000;
/** Distinct terms, and their characters, given ids before the ids and the cache start again: bounded as the cache is (a Worker has 128 MB). */
const MAX_TERM_IDS = 500_000;
const MAX_TERM_CHARS = 8_000_000;

interface Entry {
  /** The text its ids were read from: no more than a trace keeps. */
  text: string;
  ids: Uint32Array;
}

const cache = new SizedCache<string, Entry>({
  maxEntries: CHUNK_TERMS_CACHE_SIZE,
  maxSize: CHUNK_TERMS_CACHE_BYTES,
  sizeOf: (e) => e.text.length + 4 * e.ids.length,
});
const ids = new Map<string, number>();
let termChars = 0;

function idOf(term: string): number {
  let id = ids.get(term);
  if (id === undefined) {
    // A copy: a term sliced from a chunk's text would keep the whole text alive after the chunk leaves the cache.
    ids.set(` ${term}`.slice(1), (id = ids.size));
    termChars += term.length;
  }
  return id;
}

/**
 * A query's terms as ids, sorted, to test chunks against with `hasTerm`. Called once per list,
 * before its chunks: only here do the ids start again, so a list's query and chunks agree.
 */
export function queryTermIds(queryTerms: Iterable<string>): Uint32Array {
  if (ids.size > MAX_TERM_IDS || termChars > MAX_TERM_CHARS) {
    ids.clear();
    cache.clear();
    termChars = 0;
  }
  return Uint32Array.from(queryTerms, idOf).sort();
}

/** The chunk's distinct terms as sorted ids. */
export function chunkTermIds(c: Candidate): Uint32Array {
  // Only as much text as a trace keeps: the model was trained on no more of it.
  const text = c.text.length > MAX_CHUNK_TEXT ? c.text.slice(0, MAX_CHUNK_TEXT) : c.text;
  const hit = cache.get(c.chunkId);
  if (hit && hit.text === text) return hit.ids;
  const own = Uint32Array.from(new Set(terms(text)), idOf).sort();
  // A copy of a cut text: the slice would keep a whole document alive (as a term's would, see idOf).
  cache.set(c.chunkId, { text: text === c.text ? text : ` ${text}`.slice(1), ids: own });
  return own;
}

/** Whether sorted ids hold `id` (binary search). */
export function hasTerm(sorted: Uint32Array, id: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
