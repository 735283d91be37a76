/**
 * Taking questions out of a model's memory: erasing a user removes, from every stored model, the
 * judged queries their questions gave (terms.ts `questionTerms`, as training's memory holds them).
 */
import { questionTerms } from '../terms.ts';

/** What of an artifact this reads and rewrites: its other fields, a newer version's included, are kept as they are. */
export interface ModelMemory {
  memory: { queries: { terms: string[] }[]; judgements: { query: number }[] };
}

/** A set of terms as one string: the same for any order and repeats, so sets compare as strings. */
export const termSetKey = (terms: Iterable<string>): string => JSON.stringify([...new Set(terms)].sort());

/** The memory query a question gives, as `termSetKey`: training remembers a judged question by its distinct terms. */
export const questionTermSet = (query: string): string => termSetKey(questionTerms(query));

/**
 * The artifact without the memory queries whose set of terms is one of `forgotten` (`termSetKey`
 * each), nor the judgements pointing at them; the judgements left point at the queries left, in
 * their order. Null when no query matches: nothing to rewrite.
 */
export function withoutQuestions<M extends ModelMemory>(model: M, forgotten: ReadonlySet<string>): M | null {
  const { queries, judgements } = model.memory;
  const index = new Map<number, number>();
  const kept: M['memory']['queries'] = [];
  queries.forEach((q, i) => {
    if (forgotten.has(termSetKey(q.terms))) return;
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
