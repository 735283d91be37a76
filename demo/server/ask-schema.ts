import * as v from 'valibot';
import { id, wellFormed } from '../../shared/schema/common.ts';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';

/**
 * The largest `POST /api/ask` body: the longest question at 6 bytes a character (a control
 * character JSON escapes as `\u0001`; CJK takes 3 in UTF-8), and 1 KB for the ids and field names.
 * Any question the schema takes fits, so one too long is refused for its length, naming `query`.
 */
export const MAX_ASK_BYTES = 6 * MAX_QUERY_CHARS + 1024;

/** `POST /api/ask`: one question of a chat session, or a regenerate of an earlier answer. Nothing else: a misspelt field is refused, not ignored. */
export const AskSchema = v.strictObject({
  /** The chat session, made by the page; the trace and the widget carry it. */
  sessionId: id(),
  /** The question as typed; refused as the collector would refuse its trace (no broken Unicode), so no answer goes untraced. */
  query: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(MAX_QUERY_CHARS), wellFormed()),
  /** 0-based turn in the session; a regenerate repeats the turn it replaces. */
  turnIndex: v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(10_000)),
  /** The trace id of the answer being regenerated. */
  regenerateOf: v.optional(id()),
});
