import type { FieldError } from '../../shared/validation.ts';
import { ApiRequestError } from '../api/client.ts';
import { format, type StringKey, type Strings } from '../i18n/strings.ts';

/**
 * The one place the console words a refusal from its code: each code the collector can answer the
 * console's calls with (collector/errors.ts and the routes the console calls), as words of the
 * reader's language; `{fields}` names the fields at fault. Refusals a page words itself are not
 * here: the 409s and 412s (what they mean for what was being done: answered elsewhere, resolved
 * meanwhile, …), a trace or correction not found, a key refused at sign-in. A code not listed
 * keeps the collector's own (English) message.
 */
const REFUSALS: Readonly<Record<string, StringKey>> = {
  missing_key: 'refusal_key',
  invalid_key: 'refusal_key',
  admin_only: 'refusal_admin_only',
  rate_limited: 'refusal_rate_limited',
  payload_too_large: 'refusal_too_large',
  not_found: 'refusal_no_route',
  method_not_allowed: 'refusal_no_route',
  internal: 'refusal_failed',
  invalid_user: 'refusal_user',
  item_not_found: 'refusal_item_not_found',
  unknown_model: 'refusal_unknown_model',
  // A 400 checking a query string or a body: the fields it names.
  invalid_query: 'refusal_fields',
  invalid_answer: 'refusal_fields',
  invalid_resolution: 'refusal_fields',
  invalid_reason: 'refusal_fields',
  invalid_settings: 'refusal_fields',
  invalid_owners: 'refusal_fields',
  invalid_config: 'refusal_fields',
};

const known = (code: string) => Object.hasOwn(REFUSALS, code);

/**
 * The words for a refusal, from its code and the fields it names; undefined for a code the console
 * does not know. An answer with no error body (a proxy's 502 page) is `http_error`: a failure when it is a 5xx.
 */
function wordsFor(code: string, status: number, fields: readonly FieldError[], s: Strings): string | undefined {
  if (code === 'http_error' && status >= 500) return s.refusal_failed;
  if (!known(code)) return undefined;
  const key = REFUSALS[code]!;
  const named = [...new Set(fields.map(({ field }) => field))].join(', ');
  const said = fields.map(({ field, message }) => `${field} (${message})`).join('; ');
  // A 400 naming no field (an older collector's) has nothing to name: its message says more.
  return key === 'refusal_fields' && !named ? undefined : format(s[key], { fields: named, said });
}

/** What a refusal says, in the reader's language; the collector's own message for a code the console does not know. */
const refusalText = (err: ApiRequestError, s: Strings): string => wordsFor(err.code, err.status, err.fields, s) ?? err.message;

/** Some of the fields a 400 of `code` named (those a form does not show), each with the collector's message for a code the console does not know. */
export const fieldsRefusalText = (code: string, fields: readonly FieldError[], s: Strings): string =>
  wordsFor(code, 400, fields, s) ?? fields.map(({ field, message }) => `${field}: ${message}`).join('; ');

/**
 * What the collector said of one field a 400 named, beside it: with its (English) messages in English,
 * and in another language only for a code the console does not know.
 */
export const fieldRefusalText = (code: string, messages: readonly string[], s: Strings): string =>
  format(known(code) ? s.issue_refused : s.issue_refused_said, { message: messages.join('; ') });

/** What went wrong with a request, for the reader. */
export const errorText = (err: unknown, s: Strings): string =>
  err instanceof ApiRequestError ? format(s.requestFailed, { status: err.status, message: refusalText(err, s) }) : s.networkFailed;
