/**
 * What an error says of why it happened: fetch in Node rejects with a bare "fetch failed", the words
 * to act on (connect ECONNREFUSED 127.0.0.1:8787, getaddrinfo ENOTFOUND …) being its `cause`'s.
 */
export const causeOf = (err: unknown): string => (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err));
