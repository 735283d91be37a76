/**
 * Whether `given` is an http(s) URL as it stands. Whitespace makes it none: URL parsing drops it
 * around the text (an endpoint read with its line break), but each request's URL is made from the
 * text as given (`joinUrl`), which then cannot be parsed or has another path (`//v1/traces`).
 */
export function isHttpUrl(given: unknown): given is string {
  if (typeof given !== 'string' || /\s/.test(given)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(given).protocol);
  } catch {
    return false;
  }
}

/**
 * Why an http(s) URL cannot be a collector's address that requests' paths are put after (`joinUrl`),
 * if it cannot: a user name or password in it (fetch refuses every request to such a URL, its error
 * repeating the password, which this leaves out), or a query or fragment, which the path would follow.
 */
export function endpointProblem(given: string): string | undefined {
  const url = new URL(given);
  if (url.username || url.password) {
    return `must not hold a user name or password (fetch refuses such a URL): ${url.protocol}//${url.host}${url.pathname} without them`;
  }
  if (/[?#]/.test(given)) return `must be the collector's address alone, without a query or fragment, not ${JSON.stringify(given)}`;
  return undefined;
}

/**
 * `given` as an error may show it: a user name and password in it left out (`https://user:pw@host`
 * shows as `https://host`), up to the last `@` before the path, as URLs read them (a password may hold one); not
 * past a space, where the URL has ended (`https://host is down, mail me@x`).
 */
export const withoutCredentials = (given: string): string => given.replace(/^(\s*[a-z][\w+.-]*:\/\/)[^/?#\s]*@/i, '$1');

/** Whether `url` names this machine (where `npm start` serves), as opposed to a collector elsewhere. */
export const isLoopback = (url: string): boolean => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/** `base` + `path` with exactly one slash between them, whatever the base ends with. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

/** A percent-encoded part of a URL decoded, or undefined when it is not percent-encoded UTF-8 (`caf%C3`). */
export function decodedOrUndefined(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
