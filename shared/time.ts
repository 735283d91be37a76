/** A day in milliseconds: UTC days have no daylight saving. */
export const DAY_MS = 86_400_000;

/** The UTC calendar day of an epoch-ms time, `YYYY-MM-DD`: the key of every per-day count. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Whole days from one `YYYY-MM-DD` to another (negative when `to` comes first). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
