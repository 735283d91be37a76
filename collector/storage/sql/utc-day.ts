/** The UTC day of an epoch-ms column as SQLite spells it, the same `YYYY-MM-DD` as shared/time.ts `utcDay`. */
export const utcDaySql = (column: string) => `strftime('%Y-%m-%d', ${column} / 1000, 'unixepoch')`;
