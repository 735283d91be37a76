/**
 * A migration that builds an index on `traces` again, timed on a large table: a SQLite file in the
 * schema just before it (collector/migrations applied in order up to it) holding 1M traces shaped
 * as the nightly benchmark's (a question, a 430-character answer, sessions of 2.5 turns), then
 * the migration applied as wrangler applies one, in a transaction (rolled back between runs).
 * Budget: D1 gives a request 30 s, a whole batch included, and a remote migration is one request.
 *
 *   npm run bench -- migration-index
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ROOT } from '../scripts/wrangler.ts';
import { count, type Row, row } from './stats.ts';

const MIGRATION = '0025_session_turn_order.sql';
const TRACES = 1_000_000;
const RUNS = 3;
const MIGRATIONS = join(ROOT, 'collector', 'migrations');

/** A migration's SQL, whole: its statement breakpoints are SQL comments. */
const migration = (file: string) => readFileSync(join(MIGRATIONS, file), 'utf8');

/** `traces` filled in arrival order, as the collector writes it. */
function fill(db: Database.Database) {
  const insert = db.prepare(
    `insert into traces (project_id, trace_id, session_id, user_id_hash, turn_index, query, answer, model, intent, knowledge_base, created_at, received_at)
     values ('bench', ?, ?, ?, ?, ?, ?, 'gpt-4o-mini', ?, 'help-centre', ?, ?)`,
  );
  const answer = 'The refund is issued to the original payment method within five working days of the return being received. '.repeat(4);
  const start = Date.UTC(2026, 10, 1);
  db.transaction(() => {
    for (let i = 0; i < TRACES; i++) {
      // About 2.5 turns a session; one trace in ten outside any session.
      const session = i % 10 === 9 ? null : `s-${Math.floor(i / 2.5)}`;
      const at = start + i * 2_500;
      insert.run(
        `t-${String(i).padStart(8, '0')}`,
        session,
        `u-${i % 50_000}`,
        session ? i % 3 : null,
        `how do I get a refund for order ${i % 5_000}?`,
        answer,
        `topic-${i % 40}`,
        at,
        at + 1_000,
      );
    }
  })();
}

export async function migrationIndexBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rf-migration-'));
  try {
    const db = new Database(join(dir, 'd1.sqlite'));
    for (const file of readdirSync(MIGRATIONS)
      .filter((f) => f.endsWith('.sql') && f < MIGRATION)
      .sort())
      db.exec(migration(file));
    fill(db);
    const sql = migration(MIGRATION);
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      db.exec('begin');
      const started = performance.now();
      db.exec(sql);
      times.push((performance.now() - started) / 1000);
      db.exec('rollback');
    }
    db.close();
    return [row('migration-index', `${MIGRATION} on ${count(TRACES)} traces (better-sqlite3, this machine)`, 's', times, '<= 30')];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
