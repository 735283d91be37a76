/**
 * Whether a key can go in a request header as it is: printable ASCII, no space. One pasted with
 * another character (the README's `rfw_…` with its ellipsis, curly quotes from a document) would
 * make fetch fail every request as though the collector could not be reached.
 */
export const isHeaderSafeKey = (key: string): boolean => /^[!-~]+$/.test(key);
