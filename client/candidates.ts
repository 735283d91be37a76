import * as v from 'valibot';
import { firstFieldError } from '../shared/validation.ts';

/**
 * What `rerank()` needs of its arguments. Candidates may carry fields of their own (they come back
 * as given); a score of NaN or Infinity is a number here, ranked as no score.
 */
const RerankInputSchema = v.object({
  query: v.string(),
  chunks: v.array(
    v.looseObject({
      chunkId: v.string(),
      sourceDocId: v.optional(v.string()),
      text: v.string(),
      score: v.optional(v.custom<number>((x) => typeof x === 'number', 'Invalid type: Expected number')),
    }),
  ),
});

/** Why `rerank(query, chunks)` cannot rank, naming the field (`chunks[3].text`); undefined when it can. */
export function rerankInputError(query: unknown, chunks: unknown): Error | undefined {
  const parsed = v.safeParse(RerankInputSchema, { query, chunks });
  if (parsed.success) return undefined;
  const { field, message } = firstFieldError(parsed.issues);
  return new TypeError(`rerank: ${field}: ${message}`);
}
