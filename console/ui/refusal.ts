import { ApiRequestError } from '../api/client.ts';
import { format } from '../i18n/strings.ts';
import { errorText, fieldRefusalText, fieldsRefusalText } from './error-text.ts';
import type { Words } from './words.ts';

/** A field a 400 from the collector named as at fault, with the 400's code and the API's own (English) message. */
export interface Refusal {
  code: string;
  field: string;
  /** The field as the console's forms name it: `prompts.1.maxPerDay` for the API's `prompts[1].maxPerDay`. */
  path: string;
  message: string;
}

/** Every field a 400 from the collector named as at fault, the first first; none when it named none. */
export function refusals(err: unknown): Refusal[] {
  if (!(err instanceof ApiRequestError && err.status === 400)) return [];
  return err.fields.map(({ field, message }) => ({ code: err.code, field, path: field.replace(/\[(\d+)\]/g, '.$1'), message }));
}

/**
 * What the collector said of the field at `path`, in the console's language (error-text.ts): around
 * its own messages, every one, only for a code the console does not know. Undefined when it named it none.
 */
export function saidOf(refused: readonly Refusal[], path: string): Words | undefined {
  const here = refused.filter((r) => r.path === path);
  return here.length
    ? (s) =>
        fieldRefusalText(
          here[0]!.code,
          here.map(({ message }) => message),
          s,
        )
    : undefined;
}

/** What the collector said of a filter in the address, when it refused it (it names `?days=0` as `query.days`). */
export const refusedFilter = (err: unknown, name: string): Words | undefined => saidOf(refusals(err), `query.${name}`);

/** Refused fields a form does not show, for its status line: named, in the console's language (error-text.ts). */
export const unshownText =
  (unshown: readonly Refusal[]): Words =>
  (s) =>
    format(s.requestFailed, { status: 400, message: fieldsRefusalText(unshown[0]!.code, unshown, s) });

/**
 * A failed save laid out on a form showing the fields at `paths`: what the collector said of each
 * it refused there, in the form's order, and what the status line says: the refused fields the form
 * does not show, or the whole error when it named no field (undefined when all are beside theirs).
 */
export function placed(err: unknown, paths: readonly string[]): { said: Map<string, Words>; status: Words | undefined } {
  const refused = refusals(err);
  const said = new Map(
    paths.flatMap((path) => {
      const words = saidOf(refused, path);
      return words ? [[path, words] as const] : [];
    }),
  );
  const unshown = refused.filter(({ path }) => !said.has(path));
  return { said, status: unshown.length ? unshownText(unshown) : said.size ? undefined : (s) => errorText(err, s) };
}
