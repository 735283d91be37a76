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
  if (!m) throw new ApiError(400, { code: 'invalid_if_match', message: 'must be the ETag a read answered, e.g. "1764900000000"', field: 'if-match' });
  return Number(m[1]);
}

/** A save made from a read older than what is stored: nothing was written. */
export const changedSinceRead = () =>
  new ApiError(412, {
    code: 'changed_since_read',
    message: 'Saved by someone else since this was read: read it again and send its ETag as If-Match',
  });
