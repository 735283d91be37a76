import { sql } from 'drizzle-orm';
import { integer } from 'drizzle-orm/sqlite-core';
import { NOW_MS_SQL } from '../sql/now-ms.ts';

/** Times are epoch milliseconds everywhere: the wire uses them and SQLite compares them cheaply. */
export const ms = (name: string) => integer(name, { mode: 'number' });

/** Default of a row's creation time. */
export const nowMs = sql.raw(`(${NOW_MS_SQL})`);
