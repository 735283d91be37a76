import { drizzle } from 'drizzle-orm/d1';
import * as schema from '../schema/index.ts';

export type Db = ReturnType<typeof openDb>;

export const openDb = (d1: D1Database) => drizzle(d1, { schema });
