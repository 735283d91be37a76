import type { Context } from 'hono';
import { ApiError } from '../errors.ts';

/** The ETag a row's version is sent as (strong, quoted). */
export const etagOf = (version: number) => `"${version}"`;

/**
 * The version a save was made from: `If-Match: "<version>"`, the ETag its read answered. Absent (or
 * `*`), the save is unconditional, as scripts send it; anything else is a 400 naming the header.
 */
export function ifMatchVersion(c: Context): number | undefined {
  const given = c.req.header('if-match')?.trim();
  if (given === undefined || given === '*') return undefined;
  const m = /^"(\d{1,16})"$/.exec(given);
  if (!m) throw ApiError.fields('invalid_if_match', [{ field: 'if-match', message: 'must be the ETag a read answered, e.g. "1764900000000"' }]);
  return Number(m[1]);
}

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
