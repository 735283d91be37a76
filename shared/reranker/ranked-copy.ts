import type { Candidate, Reranked } from './candidate.ts';

/** What a ranking adds to a chunk. */
export type Ranking = Pick<Reranked, 'rerankScore' | 'retrievalRank' | 'rerankerVersion'>;

/** An object whose copy is a plain object spread (see chunkCopy). */
const isPlainObject = (x: unknown): x is object => typeof x === 'object' && x !== null && Object.getPrototypeOf(x) === Object.prototype;

/**
 * A copy of the caller's chunk for withRanking, the chunk itself unchanged. A plain object is spread
 * (an own getter read into its value): copying its property descriptors too cost from a tenth to
 * half of the chunks ranked a second (bench/reranker.ts). Anything else is copied over its own
 * prototype with its own properties as they are (getters, non-enumerable ones), so a class instance
 * keeps its getters, its methods and `instanceof`, where a spread kept only own enumerable values.
 * Writable as a spread's copy is, even of a frozen chunk. What is not an object is kept as it is.
 */
function chunkCopy<C>(chunk: C): C {
  if (typeof chunk !== 'object' || chunk === null) return chunk;
  if (isPlainObject(chunk)) return { ...chunk };
  const own: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(chunk);
  for (const key of Reflect.ownKeys(own)) {
    const d = own[key as string]!;
    d.configurable = true;
    if ('value' in d) d.writable = true;
  }
  return Object.create(Object.getPrototypeOf(chunk), own) as C;
}

/** A chunkCopy given its ranking, replacing any of the chunk's own of those names. */
function withRanking<C extends Candidate>(copy: C, ranking: Ranking): Reranked<C> {
  // A list `rerank()` was wrongly given may hold null or a string: copied as a spread copies them.
  if (typeof copy !== 'object' || copy === null) return { ...(copy as object), ...ranking } as Reranked<C>;
  if (isPlainObject(copy)) return Object.assign(copy, ranking);
  const own: PropertyDescriptorMap = {};
  for (const [key, value] of Object.entries(ranking)) own[key] = { value, writable: true, enumerable: true, configurable: true };
  return Object.defineProperties(copy, own) as Reranked<C>;
}

/** The fields a ranking, or `rerank()`'s checks, read of a chunk. */
const FIELDS = ['chunkId', 'sourceDocId', 'text', 'score'] as const;

/**
 * What a ranking reads of the chunks, so that each is read once (a getter may be costly, or answer
 * otherwise when read again): a plain chunk's copy, a spread, which read its getters; of any other
 * object, the fields ranking reads, each read once here (those it has, so a check names one it
 * lacks as missing), its copy keeping its getters (and not its `#private` fields, which they may
 * read). What is not an object is kept as it is. `ranked` gives the copies in a ranking's order.
 */
export function readOnce<C extends Candidate>(chunks: readonly C[]): { read: readonly Candidate[]; ranked: (ranking: readonly Ranking[]) => Reranked<C>[] } {
  const copies = chunks.map(chunkCopy);
  return {
    read: chunks.map((c, i): Candidate => {
      if (isPlainObject(c) || typeof c !== 'object' || c === null) return copies[i]!;
      const fields: Partial<Candidate> = {};
      for (const key of FIELDS) if (key in c) Object.assign(fields, { [key]: c[key] });
      return fields as Candidate;
    }),
    ranked: (ranking) => ranking.map((r) => withRanking(copies[r.retrievalRank - 1]!, r)),
  };
}
