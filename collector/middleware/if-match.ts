import type { Context, MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import type { FieldError } from '../../shared/validation.ts';
import type { AppEnv, WithInput } from '../env.ts';
import { ApiError, checkedValue } from '../errors.ts';
import { type JsonBodyOptions, jsonReader } from './json-body.ts';
import { checkBody } from './valid-body.ts';

/** The ETag a row's version is sent as (strong, quoted). */
export const etagOf = (version: number) => `"${version}"`;

/**
 * An entity tag as compared weakly (RFC 9110, 8.8.3.2): `W/"1"` names what `"1"` does. Cloudflare
 * weakens an ETag on its way to a browser (when it compresses the body), and this collector's tags
 * name a stored version, not the response's bytes, so either form of one names the same version.
 */
export const weakly = (tag: string) => tag.replace(/^W\//, '');

/** What `If-Match` holds: a version, none (absent or `*`: the save is unconditional, as scripts send it), or a fault naming the header. */
function readIfMatch(c: Context): { version: number | undefined } | { fault: FieldError } {
  const given = c.req.header('if-match')?.trim();
  if (given === undefined || given === '*') return { version: undefined };
  const m = /^"(\d{1,16})"$/.exec(weakly(given));
  return m ? { version: Number(m[1]) } : { fault: { field: 'if-match', message: 'must be the ETag a read answered, e.g. "1764900000000"' } };
}

/**
 * The version a save was made from: `If-Match: "<version>"` (or `W/"<version>"`), the ETag its
 * read answered; undefined when there is none. Anything else is a 400 naming the header.
 */
export function ifMatchVersion(c: Context): number | undefined {
  const read = readIfMatch(c);
  if ('fault' in read) throw ApiError.fields('invalid_if_match', [read.fault]);
  return read.version;
}

/**
 * Reads and checks a save's body as `jsonBody` and `validBody` do, and its `If-Match`: a bad header
 * is named first beside every field at fault in the body, in one 400, so both are put right in one
 * round (a body too large or of another media type is its 413 or 415 first).
 */
export const validSave = <S extends v.GenericSchema>(
  options: JsonBodyOptions,
  schema: S,
  code: string,
): MiddlewareHandler<AppEnv & WithInput<v.InferOutput<S>>> => {
  const readBody = jsonReader(options);
  return async function validSave(c, next) {
    const ifMatch = readIfMatch(c);
    const read = await readBody(c);
    const body = read.ok ? checkBody(schema, code, read.value) : read;
    if ('fault' in ifMatch) throw ApiError.fields('invalid_if_match', [ifMatch.fault, ...(body.ok ? [] : body.fields)]);
    c.set('input', checkedValue(body));
    await next();
  };
};

/**
 * Saves under the request's `If-Match` (`save` answers the new version, or undefined when the
 * stored one moved on since that read: a 412, nothing written) and answers the new version as the ETag.
 */
export async function saveIfMatch(c: Context, save: (ifVersion: number | undefined) => Promise<number | undefined>): Promise<void> {
  const version = await save(ifMatchVersion(c));
  if (version === undefined) throw changedSinceRead();
  c.header('ETag', etagOf(version));
}

/** A save made from a read older than what is stored: nothing was written. */
const changedSinceRead = () =>
  new ApiError(412, {
    code: 'changed_since_read',
    message: 'Saved by someone else since this was read: read it again and send its ETag as If-Match',
  });
