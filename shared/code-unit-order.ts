/**
 * Code-unit order of two strings, for sorts that must agree with SQLite: the ids compared are
 * ASCII, where it is the byte order SQLite compares text in (`localeCompare` is not).
 */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
