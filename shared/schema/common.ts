import * as v from 'valibot';
import { hasControlCharacters } from '../control-characters.ts';
import { keptText } from '../kept-text.ts';
import { redactPIIAndAddresses } from '../redact-address.ts';
import { MAX_COUNT } from './counts.ts';
import { MAX_DURATION_MS } from './durations.ts';

/** Whether an id can be a URL path's segment: a path drops `.` and `..`, even percent-encoded, so no route could name them. */
export const isPathSegment = (s: string) => s !== '.' && s !== '..';
const pathSegment = () => v.check(isPathSegment, 'cannot be . or .., which a URL path cannot name');

/**
 * An identifier the product makes or a team configures: event ids, prompt ids and their answers.
 * A narrow alphabet, since these are typed into settings and matched exactly.
 */
export const id = (max = 128) =>
  v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max),
    v.regex(/^[\w.:@/#-]+$/, 'may hold only letters, digits and . : @ / # _ -'),
    pathSegment(),
  );

/**
 * Refuses half of a character (a UTF-16 surrogate without its pair): stored, it would come back
 * as other characters, so an id would no longer find its row and a text would not be what was sent.
 */
export const wellFormed = () => v.check((s: string) => !/\p{Cs}/u.test(s), 'holds broken Unicode (half of a surrogate pair)');

/** The longest id from a team's own systems (below). */
export const EXTERNAL_ID_MAX = 512;

/** Zero-width non-joiner and joiner, which an id may hold within it (below). */
const JOINERS = /[\u200c\u200d]/g;
const JOINER_AT_END = /^[\u200c\u200d]|[\u200c\u200d]$/;

/**
 * An identifier from a team's own systems: trace, session, chunk and document ids, in whatever
 * format those use (base64, Unicode titles, `refunds.md § 2`). Only what would make it two ids
 * that look alike is refused: control and invisible format characters, and white space at its ends.
 * Zero-width joiners (U+200C, U+200D) are taken within an id, not at its ends: Persian spells
 * words with the first and emoji sequences join with the second, so a document's title holds them.
 * Up to 512 characters: a document named by its title (a Wikipedia title is up to 255 bytes) with
 * a chunk's suffix still fits.
 */
export const externalId = (max = EXTERNAL_ID_MAX) =>
  v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max),
    v.check(
      (s: string) => !JOINER_AT_END.test(s) && /^(?!\s)[^\p{Cc}\p{Cf}]*(?<!\s)$/u.test(s.replace(JOINERS, '')),
      'must not hold control or invisible format characters, nor begin or end with white space or a zero-width joiner',
    ),
    wellFormed(),
    pathSegment(),
  );

/**
 * Plain text that is not user input (model names, versions, labels). A control character other than
 * tab and line breaks is refused, as in an id, not dropped as from typed text: a system sent it, so
 * it is told, and a NUL would cut SQLite's string functions short and split a group by the label.
 */
export const label = (max = 200) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    wellFormed(),
    v.check((s: string) => !hasControlCharacters(s), 'must not hold control characters other than tab and line breaks'),
  );

/**
 * Text a person typed: bounded, without control characters, and redacted for PII and addresses as
 * it is parsed, so nothing unredacted passes. A placeholder may be longer than what it replaces
 * (`[EMAIL]` than `a@b.co`): the text as typed is held to `max`, as it always was, and the
 * redacted one cut to it, so what is stored keeps its limit too.
 */
export const freeText = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max),
    wellFormed(),
    v.transform((s) => keptText(s, max, redactPIIAndAddresses)),
  );

export const EPOCH_MS_RANGE = 'must be epoch milliseconds from 2020 to 2100';

/** Milliseconds since the Unix epoch, between 2020 and 2100 (catches seconds and garbage). */
export const epochMs = () => v.pipe(v.number(), v.safeInteger(), v.minValue(1_577_836_800_000, EPOCH_MS_RANGE), v.maxValue(4_102_444_800_000, EPOCH_MS_RANGE));

/** A duration in milliseconds, up to a day. */
export const durationMs = () => v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(MAX_DURATION_MS));
/** A count of characters: a whole number up to MAX_COUNT. */
export const charCount = () => v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(MAX_COUNT));

/** A finite number (JSON has no NaN or Infinity, but a JS caller might pass them). */
export const finite = () => v.pipe(v.number(), v.finite());

/**
 * Arrays and objects nested inside one another in a free-form JSON value (the gate's evaluation)
 * at most: far past any real one, and far short of what would overflow the stack of the
 * recursive `JSON.stringify` that stores it (a 16 MB body can nest millions deep).
 */
export const MAX_JSON_NESTING = 64;

/**
 * Whether every number in a JSON value is finite (`1e999` parses to Infinity, which would be
 * stored as null) and it nests at most MAX_JSON_NESTING deep. Walked with a list, not recursion,
 * so a value nested millions deep is refused rather than overflowing the stack.
 */
export function finiteAndShallow(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item === 'number' && !Number.isFinite(item)) return false;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= MAX_JSON_NESTING) return false;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return true;
}
