import * as v from 'valibot';
import type { Candidate } from '../shared/reranker/candidate.ts';
import { firstFieldError } from '../shared/validation.ts';

/**
 * What `rerank()` needs of its arguments. Candidates may carry fields of their own (they come back
 * as given, and are not read here); a score of NaN or Infinity is a number here, ranked as no score.
 */
const RerankInputSchema = v.object({
  query: v.string(),
  chunks: v.array(
    v.object({
      chunkId: v.string(),
      sourceDocId: v.optional(v.string()),
      text: v.string(),
      score: v.optional(v.custom<number>((x) => typeof x === 'number', 'Invalid type: Expected number')),
    }),
  ),
});

/**
 * The chunks as `rerank(query, chunks)` reads them, each field read once, here (a getter may be
 * costly, or answer otherwise when read again); or why it cannot rank, naming the field (`chunks[3].text`).
 */
export function rerankInput(query: unknown, chunks: unknown): { chunks: Candidate[] } | { error: TypeError } {
  const parsed = v.safeParse(RerankInputSchema, { query, chunks });
  if (parsed.success) return { chunks: parsed.output.chunks };
  const { field, message } = firstFieldError(parsed.issues);
  return { error: new TypeError(`rerank: ${field}: ${message}`) };
}
