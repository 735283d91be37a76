/**
 * The distinct terms of a chunk, remembered by chunk id: a backend reranks the same hot chunks
 * again and again, and tokenising their text is most of a feature row's cost. Bounded (oldest
 * entry out first: cheaper on every hit than least-recently-used, and hot chunks come straight
 * back); an entry whose text changed is recomputed.
 */
import { terms } from '../terms.ts';
import type { Candidate } from './candidate.ts';

export const CHUNK_TERMS_CACHE_SIZE = 50_000;

const cache = new Map<string, { text: string; title: string | undefined; terms: ReadonlySet<string> }>();

export function chunkTerms(c: Candidate): ReadonlySet<string> {
  const hit = cache.get(c.chunkId);
  if (hit && hit.text === c.text && hit.title === c.title) return hit.terms;
  const own = new Set(terms(c.title ? `${c.title} ${c.text}` : c.text));
  cache.set(c.chunkId, { text: c.text, title: c.title, terms: own });
  if (cache.size > CHUNK_TERMS_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return own;
}
