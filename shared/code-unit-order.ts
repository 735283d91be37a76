/**
 * Code-unit order of two strings: the same on every machine (`localeCompare` is not), and for
 * ASCII ids the byte order SQLite compares text in, so sorts in JavaScript agree with its indexes.
 */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
