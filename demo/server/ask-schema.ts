import * as v from 'valibot';
import { id } from '../../shared/schema/common.ts';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';

/** `POST /api/ask`: one question of a chat session, or a regenerate of an earlier answer. */
export const AskSchema = v.object({
  /** The chat session, made by the page; the trace and the widget carry it. */
  sessionId: id(),
  /** The question as typed. */
  query: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(MAX_QUERY_CHARS)),
  /** 0-based turn in the session; a regenerate repeats the turn it replaces. */
  turnIndex: v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(10_000)),
  /** The trace id of the answer being regenerated. */
  regenerateOf: v.optional(id()),
});
