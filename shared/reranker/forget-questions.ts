/**
 * Taking questions out of a model's memory: erasing a user removes, from every stored model, the
 * judged queries their questions gave (terms.ts `questionTerms`, as training's memory holds them).
 * A question is known by the SHA-256 of its set of terms, so what erasure keeps while it works is
 * not the question's words.
 */
import { sha256Hex } from '../hex.ts';
import { questionTerms } from '../terms.ts';

/** What of an artifact this reads and rewrites: its other fields, a newer version's included, are kept as they are. */
export interface ModelMemory {
  memory: { queries: { terms: string[] }[]; judgements: { query: number }[] };
}

/** A set of terms as one string: the same for any order and repeats, so sets compare as strings. */
export const termSetKey = (terms: Iterable<string>): string => JSON.stringify([...new Set(terms)].sort());

/** What a forgotten question is kept as: the SHA-256 of its `termSetKey`, in hex. */
export const termSetHash = (terms: Iterable<string>): Promise<string> => sha256Hex(termSetKey(terms));

/** The memory query a question gives, as `termSetHash`: training remembers a judged question by its distinct terms. */
export const questionTermHash = (query: string): Promise<string> => termSetHash(questionTerms(query));

/** Whether a kept key is a `termSetHash` (rows kept before hashing hold the `termSetKey` itself). */
export const isTermSetHash = (key: string): boolean => /^[0-9a-f]{64}$/.test(key);

/**
 * The artifact without the memory queries whose set of terms is one of `forgotten` (`termSetHash`
 * each), nor the judgements pointing at them; the judgements left point at the queries left, in
 * their order. Null when no query matches: nothing to rewrite.
 */
export async function withoutQuestions<M extends ModelMemory>(model: M, forgotten: ReadonlySet<string>): Promise<M | null> {
  const { queries, judgements } = model.memory;
  if (forgotten.size === 0) return null;
  const hashes = await Promise.all(queries.map((q) => termSetHash(q.terms)));
  const index = new Map<number, number>();
  const kept: M['memory']['queries'] = [];
  queries.forEach((q, i) => {
    if (forgotten.has(hashes[i]!)) return;
    index.set(i, kept.length);
    kept.push(q);
  });
  if (kept.length === queries.length) return null;
  const left = judgements.flatMap((j) => {
    const query = index.get(j.query);
    return query === undefined ? [] : [{ ...j, query }];
  });
  return { ...model, memory: { ...model.memory, queries: kept, judgements: left } };
}
