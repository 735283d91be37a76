import type { Candidate, Reranked } from './candidate.ts';

/** What a ranking adds to a chunk. */
export type Ranking = Pick<Reranked, 'rerankScore' | 'retrievalRank' | 'rerankerVersion'>;

/**
 * The caller's chunk with its ranking, the chunk itself unchanged. A plain object is spread (an
 * own getter read into its value): copying its property descriptors too cost from a tenth to half
 * of the chunks ranked a second (bench/reranker.ts). Anything else is copied over its own prototype
 * with its own properties as they are (getters, non-enumerable ones), so a class instance keeps
 * its getters, its methods and `instanceof`, where a spread kept only own enumerable values.
 * Writable as a spread's copy is, even of a frozen chunk.
 */
export function rankedCopy<C extends Candidate>(chunk: C, ranking: Ranking): Reranked<C> {
  // A list `rerank()` was wrongly given may hold null or a string: copied as a spread copies them.
  if (typeof chunk !== 'object' || chunk === null || Object.getPrototypeOf(chunk) === Object.prototype) return { ...chunk, ...ranking };
  const own: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(chunk);
  for (const key of Reflect.ownKeys(own)) {
    const d = own[key as string]!;
    d.configurable = true;
    if ('value' in d) d.writable = true;
  }
  for (const [key, value] of Object.entries(ranking)) own[key] = { value, writable: true, enumerable: true, configurable: true };
  return Object.create(Object.getPrototypeOf(chunk), own) as Reranked<C>;
}
