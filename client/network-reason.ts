import { causeOf } from '../shared/cause.ts';

/**
 * Why a request never got an answer, and where it went: Node's fetch rejects with a bare
 * "fetch failed", the words an integrator can act on (connect ECONNREFUSED 127.0.0.1:8787,
 * getaddrinfo ENOTFOUND collector.internal) being in its `cause`.
 */
export function networkReason(error: unknown, url: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = causeOf(error);
  return `${message}${cause !== message ? ` (${cause})` : ''}, to ${url}`;
}
