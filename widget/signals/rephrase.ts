import { loadBackground } from '../load-background.ts';
import { KEY, noteTrace } from '../session.ts';
import { readJson, writeJson } from '../storage.ts';

export interface Rephrase {
  /** The earlier trace, which the rephrase signal is about. */
  firstTraceId: string;
  similarity: number;
  gapMs: number;
}

interface LastQuery {
  traceId: string;
  query: string;
  at: number;
}

/** The next answer regenerates the last one: it repeats the question, which is not a rephrase. */
export const forgetQuery = (sessionId: string): void => void writeJson(KEY.lastQuery(sessionId), null);

/**
 * Notes that `traceId` answered `query` at `at`, and says whether it rephrased the session's
 * previous query within the window. Traces seen before (a reload re-rendering the history) are
 * ignored, so only a genuinely new question can be a rephrase. The bookkeeping is synchronous,
 * so answers are noted in the order they appear.
 */
export async function noteQuery(
  sessionId: string,
  traceId: string,
  query: string,
  at: number,
  windowMs: number,
  threshold: number,
): Promise<Rephrase | undefined> {
  if (noteTrace(KEY.seen(sessionId), traceId).includes(traceId)) return undefined;
  const last = readJson<LastQuery>(KEY.lastQuery(sessionId));
  writeJson(KEY.lastQuery(sessionId), { traceId, query, at } satisfies LastQuery);
  if (!last || !query || last.traceId === traceId) return undefined;
  const gapMs = at - last.at;
  if (gapMs < 0 || gapMs > windowMs) return undefined;
  // The similarity code loads only when there is a pair to compare.
  const { querySimilarity } = await loadBackground();
  const similarity = querySimilarity(last.query, query);
  return similarity >= threshold ? { firstTraceId: last.traceId, similarity: Math.round(similarity * 1000) / 1000, gapMs } : undefined;
}
