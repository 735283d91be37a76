import { ApiRequestError } from '../api/client.ts';
import { format } from '../i18n/strings.ts';
import type { Words } from './words.ts';

/**
 * The field a 400 from the collector named as the one it refused, and what it said of it worded
 * in the console's language around the API's own (English) message; undefined when it named none.
 */
export function refusal(err: unknown): { field: string; words: Words } | undefined {
  if (!(err instanceof ApiRequestError && err.status === 400 && err.field)) return undefined;
  return { field: err.field, words: (s) => format(s.issue_refused, { message: err.message }) };
}
