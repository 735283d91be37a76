import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ROOT } from './wrangler.ts';

const DIR = join(ROOT, 'collector', 'migrations');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const apply = (db: Database.Database, file: string) => {
  for (const statement of readFileSync(join(DIR, file), 'utf8').split('--> statement-breakpoint')) if (statement.trim()) db.exec(statement);
};

describe('migrations', () => {
  it('move each chunk text into chunk_texts once, keeping what every existing trace retrieved', () => {
    const db = new Database(':memory:');
    const before = files.filter((f) => f < '0003');
    for (const f of before) apply(db, f);
    const insert = db.prepare(
      'insert into trace_chunks (project_id, trace_id, stage, rank, chunk_id, source_doc_id, source_doc_version, score, text) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    insert.run('p', 't1', 'retrieved', 1, 'c1', 'a.md', 'v1', 0.9, 'first text');
    insert.run('p', 't2', 'retrieved', 1, 'c1', 'a.md', 'v1', 0.8, 'first text');
    insert.run('p', 't2', 'retrieved', 2, 'c2', 'b.md', null, 0.7, 'unversioned');
    for (const f of files.filter((f) => f >= '0003')) apply(db, f);
    expect(db.prepare('select chunk_id, source_doc_version, text from chunk_texts order by chunk_id').all()).toEqual([
      { chunk_id: 'c1', source_doc_version: 'v1', text: 'first text' },
      { chunk_id: 'c2', source_doc_version: '', text: 'unversioned' },
    ]);
    expect(db.prepare('select count(*) as n from trace_chunks').get()).toEqual({ n: 3 });
    expect(
      db
        .prepare('select name from pragma_table_info(?)')
        .all('trace_chunks')
        .map((c) => (c as { name: string }).name),
    ).not.toContain('text');
  });

  it('leaves the answers received since the last finished run for the chunk totals to add, and only those', () => {
    const db = new Database(':memory:');
    for (const f of files.filter((f) => f < '0016')) apply(db, f);
    db.exec(`insert into projects (id, name) values ('p', 'P'), ('q', 'Q');
      insert into loop_runs (project_id, night, status, stage, window_from, window_to, state, stages, started_at) values
        ('p', '2026-11-01', 'done', 0, 0, 1000, '{}', '[]', 0), ('p', '2026-11-02', 'running', 0, 1000, 2000, '{}', '[]', 0)`);
    const trace = db.prepare(`insert into traces (project_id, trace_id, query, answer, model, created_at, received_at) values (?, ?, 'q', 'a', 'm', 0, ?)`);
    const stats = db.prepare(
      `insert into trace_stats (project_id, trace_id, query_key, created_at, live_signals, explicit_signals, implicit_signals, trusted_signals, requeried, updated_at)
       values (?, ?, 'q', 0, 0, 0, 0, 0, 0, 0)`,
    );
    // p: one answer before its last finished run's window end, one in the run under way; q: never run.
    for (const [project, id, received] of [
      ['p', 'counted', 900],
      ['p', 'since', 1500],
      ['q', 'never-run', 10],
    ] as const) {
      trace.run(project, id, received);
      stats.run(project, id);
    }
    for (const f of files.filter((f) => f >= '0016')) apply(db, f);
    expect(db.prepare('select trace_id, retrievals_pending from trace_stats order by trace_id').all()).toEqual([
      { trace_id: 'counted', retrievals_pending: 0 },
      { trace_id: 'never-run', retrievals_pending: 1 },
      { trace_id: 'since', retrievals_pending: 1 },
    ]);
  });
});
