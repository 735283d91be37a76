import { ApiRequestError } from '../api/client.ts';
import { format } from '../i18n/strings.ts';
import type { Words } from './words.ts';

/** A field a 400 from the collector named as at fault, with the API's own (English) message. */
export interface Refusal {
  field: string;
  message: string;
  /** What it said of the field, worded in the console's language around the API's message. */
  words: Words;
}

/** Every field a 400 from the collector named as at fault, the first first; none when it named none. */
export function refusals(err: unknown): Refusal[] {
  if (!(err instanceof ApiRequestError && err.status === 400)) return [];
  return err.fields.map(({ field, message }) => ({ field, message, words: (s) => format(s.issue_refused, { message }) }));
}

/** Refused fields a form does not show, for its status line: each named with what the collector said of it. */
export const unshownText =
  (unshown: readonly Refusal[]): Words =>
  (s) =>
    format(s.requestFailed, { status: 400, message: unshown.map(({ field, message }) => `${field}: ${message}`).join('; ') });
