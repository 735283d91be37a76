import * as v from 'valibot';
import { redactPII } from '../redact.ts';

/** An identifier from a client: trace ids, session ids, chunk ids, event ids. */
export const id = (max = 128) =>
  v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(max), v.regex(/^[\w.:@/#-]+$/, 'may hold only letters, digits and . : @ / # _ -'));

/** Plain text that is not user input (model names, versions, labels). */
export const label = (max = 200) => v.pipe(v.string(), v.maxLength(max));

/** Text a person typed: bounded, and redacted for PII as it is parsed, so nothing unredacted passes. */
export const freeText = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    v.transform((s) => redactPII(s)),
  );

/** Milliseconds since the Unix epoch, between 2020 and 2100 (catches seconds and garbage). */
export const epochMs = () =>
  v.pipe(v.number(), v.safeInteger(), v.minValue(1_577_836_800_000, 'must be epoch milliseconds'), v.maxValue(4_102_444_800_000, 'must be epoch milliseconds'));

/** A duration in milliseconds, up to a day. */
export const durationMs = () => v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(86_400_000));

/** A finite number (JSON has no NaN or Infinity, but a JS caller might pass them). */
export const finite = () => v.pipe(v.number(), v.finite());
