import type { MiddlewareHandler } from 'hono';
import { decodedOrUndefined } from '../../shared/url.ts';
import { namesAny } from '../../shared/validation.ts';
import { ApiError } from '../errors.ts';

/**
 * Refuses a URL whose path or query is not percent-encoded UTF-8 (`caf%C3`, half a surrogate pair
 * as `%ED%A0%80`), a 400 naming the path and every such parameter. Hono reads such a part as it is
 * written, so an id would be stored, erased or looked up as `caf%C3`, and a filter would match
 * nothing, instead of the client learning that its URL was broken.
 */
export const decodableUrl = (): MiddlewareHandler =>
  async function decodableUrl(c, next) {
    // Most requests (every widget's and backend's write) escape nothing: nothing to check.
    if (c.req.url.includes('%')) {
      const { pathname, search } = new URL(c.req.url);
      // A Set: a parameter given twice is named once.
      const bad = new Set<string>();
      if (decodedOrUndefined(pathname) === undefined) bad.add('path');
      for (const pair of search.slice(1).split('&')) {
        const at = pair.indexOf('=');
        const [name, value] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
        const decodedName = decodedOrUndefined(name);
        if (decodedName === undefined || decodedOrUndefined(value) === undefined) bad.add(`query.${decodedName ?? name}`);
      }
      const faults = [...bad].map((field) => ({ field, message: 'is not percent-encoded UTF-8: encode the text with encodeURIComponent' }));
      if (namesAny(faults)) throw ApiError.fields('invalid_url', faults);
    }
    await next();
  };
