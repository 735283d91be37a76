/**
 * The distinct terms of a chunk, remembered by chunk id: a backend reranks the same hot chunks
 * again and again, and tokenising their text is most of a feature row's cost. Bounded (oldest
 * entry out first: cheaper on every hit than least-recently-used, and hot chunks come straight
 * back); an entry whose text changed is recomputed.
 */
import { terms } from '../terms.ts';
import { MAX_CHUNK_TEXT } from '../thresholds.ts';
import type { Candidate } from './candidate.ts';

export const CHUNK_TERMS_CACHE_SIZE = 50_000;

const cache = new Map<string, { text: string; terms: ReadonlySet<string> }>();

export function chunkTerms(c: Candidate): ReadonlySet<string> {
  const hit = cache.get(c.chunkId);
  if (hit && hit.text === c.text) return hit.terms;
  // Only as much text as a trace keeps: the model was trained on no more of it.
  const own = new Set(terms(c.text.slice(0, MAX_CHUNK_TEXT)));
  cache.set(c.chunkId, { text: c.text, terms: own });
  if (cache.size > CHUNK_TERMS_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return own;
}
