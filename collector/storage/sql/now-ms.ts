/**
 * The current time in epoch milliseconds, as SQLite computes it: the one spelling for column
 * defaults (and so the migrations drizzle-kit generates from them) and for scripts that stamp rows.
 */
export const NOW_MS_SQL = "cast(unixepoch('subsec') * 1000 as integer)";
