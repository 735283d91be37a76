/**
 * Requests to the collector follow no redirect: fetch drops the key on the way to another origin
 * (http to https is one) and turns a POST into a GET after a 301 or 302, so the collector's answer
 * ("needs a server key", "answers POST, not GET") would blame what the backend sent right.
 */
export const FOLLOW_NO_REDIRECT = 'manual' satisfies RequestInit['redirect'];

/** What to say of the answer to `url` when it redirects: where to (in full), so the endpoint can be set there; undefined for any other answer. */
export function redirectNote(res: Response, url: string): string | undefined {
  if (res.status < 300 || res.status >= 400) return undefined;
  const location = res.headers.get('location');
  let target = location ?? 'nowhere named';
  try {
    if (location !== null) target = new URL(location, url).href;
  } catch {
    // Not a URL: named as it came.
  }
  return `a redirect to ${target}: set endpoint to where it points`;
}
