/**
 * Migrations that build an index again, timed on a large table: a SQLite file walked through
 * collector/migrations in order, holding a month as the nightly benchmark generates it at full
 * scale (1M traces with a question, a 430-character answer, sessions of 2.5 turns; ten chunk rows
 * each, 10M in all, over 100k chunks of 5k documents, Zipf-popular, in their documents' versions).
 * Each case's migration is applied as wrangler applies one, in a transaction, rolled back between
 * runs; the migrations before it are applied for good first.
 * Budget: D1 gives a request 30 s, a whole batch included, and a remote migration is one request.
 *
 *   npm run bench -- migration-index
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { random } from '../scripts/seed/traffic.ts';
import { ROOT } from '../scripts/wrangler.ts';
import { TOP_RANKS } from '../shared/thresholds.ts';
import { shuffled, uuidV7s, volumeAt, zipf } from './nightly/generate.ts';
import { count, type Row, row } from './stats.ts';

const VOLUME = volumeAt(1);
const CHUNKS_PER_TRACE = 10;
const CHUNK_ROWS = VOLUME.traces * CHUNKS_PER_TRACE;
/** In the order they apply. */
const CASES = [
  { migration: '0025_session_turn_order.sql', builds: `traces_session on ${count(VOLUME.traces)} traces` },
  { migration: '0042_chunk_index_versions.sql', builds: `trace_chunks_chunk (8 columns) on ${count(CHUNK_ROWS)} chunk rows` },
  { migration: '0046_chunk_index_versions_only.sql', builds: `trace_chunks_chunk (3 columns) on ${count(CHUNK_ROWS)} chunk rows` },
];
const RUNS = 3;
const MIGRATIONS = join(ROOT, 'collector', 'migrations');
const FILES = readdirSync(MIGRATIONS)
  .filter((f) => f.endsWith('.sql'))
  .sort();

/** A migration's SQL, whole: its statement breakpoints are SQL comments. */
const migration = (file: string) => readFileSync(join(MIGRATIONS, file), 'utf8');

/**
 * `traces` and `trace_chunks` filled in arrival order, as the collector writes them, the chunk index
 * dropped during the fill and built after it (as the nightly benchmark does: sorting once is far
 * faster than inserting at random).
 */
function fill(db: Database.Database) {
  const rnd = random(1);
  const int = (n: number) => Math.floor(rnd() * n);
  const insertTrace = db.prepare(
    `insert into traces (project_id, trace_id, session_id, user_id_hash, turn_index, query, answer, model, intent, knowledge_base, created_at, received_at)
     values ('bench', ?, ?, ?, ?, ?, ?, 'gpt-4o-mini', ?, 'help-centre', ?, ?)`,
  );
  const insertChunks = db.prepare(
    `insert into trace_chunks (project_id, trace_id, stage, rank, chunk_id, source_doc_id, source_doc_version, score, top_ranked) values ${Array.from(
      { length: CHUNKS_PER_TRACE },
      () => `('bench', ?, 'retrieved', ?, ?, ?, ?, ?, ?)`,
    ).join(', ')}`,
  );
  const answer = 'The refund is issued to the original payment method within five working days of the return being received. '.repeat(4);
  const start = Date.UTC(2026, 10, 1);
  const step = (30 * 86_400_000) / VOLUME.traces;
  const { chunks, documents } = VOLUME;
  // As the nightly benchmark: eight of an answer's ten chunks Zipf-popular (s = 0.6), two at random;
  // a fifth of documents unversioned, the rest in v1, a third of those with a v2 (and some a v3) from
  // a time in the month.
  const order = shuffled(chunks, rnd);
  const draw = zipf(chunks, 0.6, rnd);
  const docOf = (chunk: number) => Math.floor((chunk * documents) / chunks);
  const versions = Array.from({ length: documents }, () => {
    const r = rnd();
    if (r < 0.2) return null;
    const a = start + rnd() * 30 * 86_400_000;
    return r < 0.65 ? [] : r < 0.92 ? [a] : [a, a + rnd() * (start + 30 * 86_400_000 - a)];
  });
  const idAt = uuidV7s(rnd);
  const values: unknown[] = [];
  const { sql: index } = db.prepare(`select sql from sqlite_master where name = 'trace_chunks_chunk'`).get() as { sql: string };
  db.exec('drop index trace_chunks_chunk');
  db.transaction(() => {
    for (let i = 0; i < VOLUME.traces; i++) {
      // About 2.5 turns a session; one trace in ten outside any session.
      const session = i % 10 === 9 ? null : `s-${Math.floor(i / 2.5)}`;
      const at = start + Math.floor(i * step);
      const traceId = idAt(at);
      insertTrace.run(
        traceId,
        session,
        `u-${i % 50_000}`,
        session ? i % 3 : null,
        `how do I get a refund for order ${i % 5_000}?`,
        answer,
        `topic-${i % 40}`,
        at,
        at + 1_000,
      );
      values.length = 0;
      for (let r = 0; r < CHUNKS_PER_TRACE; r++) {
        const c = r < 8 ? order[draw()]! : int(chunks);
        const doc = docOf(c);
        const v = versions[doc];
        const docId = `kb/doc-${String(doc).padStart(5, '0')}.md`;
        values.push(
          traceId,
          r + 1,
          `${docId}#${c.toString(36)}`,
          docId,
          v ? `v${v.filter((x) => x <= at).length + 1}` : null,
          Math.round((0.92 - 0.04 * r + rnd() * 0.02) * 1000) / 1000,
          r < TOP_RANKS ? 1 : 0,
        );
      }
      insertChunks.run(...values);
    }
  })();
  db.exec(index);
}

export async function migrationIndexBench(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rf-migration-'));
  try {
    const db = new Database(join(dir, 'd1.sqlite'));
    const rows: Row[] = [];
    let applied = 0;
    const applyBefore = (file: string) => {
      for (; FILES[applied]! < file; applied++) db.exec(migration(FILES[applied]!));
    };
    applyBefore(CASES[0]!.migration);
    const filling = performance.now();
    fill(db);
    rows.push(
      row('migration-index', `filling ${count(VOLUME.traces)} traces and ${count(CHUNK_ROWS)} chunk rows, the chunk index built after`, 's', [
        (performance.now() - filling) / 1000,
      ]),
    );
    for (const { migration: file, builds } of CASES) {
      applyBefore(file);
      const sql = migration(file);
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        db.exec('begin');
        const started = performance.now();
        db.exec(sql);
        times.push((performance.now() - started) / 1000);
        db.exec('rollback');
      }
      rows.push(row('migration-index', `${file.slice(0, 4)}: ${builds} (better-sqlite3, this machine)`, 's', times, '<= 30'));
    }
    db.close();
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
