/** The UTC calendar day of an epoch-ms time, `YYYY-MM-DD`: the key of every per-day count. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
