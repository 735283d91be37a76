import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it, type RunnerTask } from 'vitest';
import { ROOT } from './wrangler.ts';

const DIR = join(ROOT, 'collector', 'migrations');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.sql'))
  .sort();

// Each test gets an empty D1 of its own, in memory, in the engine the collector runs on: as many
// as the file has tests, counted once they are collected.
let mf: Miniflare;
let made = 0;
// biome-ignore lint/correctness/noEmptyPattern: vitest hands a hook its suite second, after a fixtures pattern it requires.
beforeAll(({}, file) => {
  const tests = (task: RunnerTask): number => (task.type === 'suite' ? task.tasks.reduce((n, t) => n + tests(t), 0) : 1);
  mf = new Miniflare({ modules: true, script: 'export default {}', d1Databases: Array.from({ length: tests(file) }, (_, i) => `DB${i}`) });
});
afterAll(() => mf.dispose());
type D1 = Awaited<ReturnType<Miniflare['getD1Database']>>;

/** A new D1 with the migrations named before `first` applied. */
async function migratedBefore(first: string): Promise<D1> {
  const db = await mf.getD1Database(`DB${made++}`);
  await apply(
    db,
    files.filter((f) => f < first),
  );
  return db;
}

/** Applies `first` and every migration after it. */
const migrateFrom = (db: D1, first: string) =>
  apply(
    db,
    files.filter((f) => f >= first),
  );

/** The files' statements in one batch: one call to workerd, not one a statement. */
async function apply(db: D1, names: string[]): Promise<void> {
  const statements = names.flatMap((file) => readFileSync(join(DIR, file), 'utf8').split('--> statement-breakpoint')).filter((s) => s.trim());
  await db.batch(statements.map((s) => db.prepare(s)));
}

/** Runs statements, several in one string. */
const run = async (db: D1, sql: string) => {
  await db.prepare(sql).run();
};
const rows = async (db: D1, sql: string, ...params: unknown[]) =>
  (
    await db
      .prepare(sql)
      .bind(...params)
      .all()
  ).results;

describe('migrations', () => {
  it('move each chunk text into chunk_texts once, keeping what every existing trace retrieved', async () => {
    const db = await migratedBefore('0003');
    const insert = db.prepare(
      'insert into trace_chunks (project_id, trace_id, stage, rank, chunk_id, source_doc_id, source_doc_version, score, text) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    await db.batch([
      insert.bind('p', 't1', 'retrieved', 1, 'c1', 'a.md', 'v1', 0.9, 'first text'),
      insert.bind('p', 't2', 'retrieved', 1, 'c1', 'a.md', 'v1', 0.8, 'first text'),
      insert.bind('p', 't2', 'retrieved', 2, 'c2', 'b.md', null, 0.7, 'unversioned'),
    ]);
    await migrateFrom(db, '0003');
    expect(await rows(db, 'select chunk_id, source_doc_version, text from chunk_texts order by chunk_id')).toEqual([
      { chunk_id: 'c1', source_doc_version: 'v1', text: 'first text' },
      { chunk_id: 'c2', source_doc_version: '', text: 'unversioned' },
    ]);
    expect(await db.prepare('select count(*) as n from trace_chunks').first()).toEqual({ n: 3 });
    expect((await rows(db, 'select name from pragma_table_info(?)', 'trace_chunks')).map((c) => c.name)).not.toContain('text');
  });

  it('has every stored answer counted afresh into the chunk totals, and keeps runs under way at their stage', async () => {
    const db = await migratedBefore('0016');
    await run(
      db,
      `insert into projects (id, name) values ('p', 'P');
      insert into loop_runs (project_id, night, status, stage, window_from, window_to, state, stages, started_at) values
        ('p', '2026-11-01', 'done', 13, 0, 1000, '{}', '[]', 0),
        ('p', '2026-11-02', 'running', 3, 1000, 2000, '{}', '[]', 0),
        ('p', '2026-11-03', 'running', 5, 2000, 3000, '{}', '[]', 0);
      insert into chunk_stats (project_id, chunk_id, source_doc_id, retrieved, top_ranked, clicks, focused_dwells, dwell_ms, copies, wrong_source_flags, updated_at)
        values ('p', 'c1', 'a.md', 7, 3, 2, 0, 0, 0, 0, 0);
      insert into trace_stats (project_id, trace_id, query_key, created_at, live_signals, explicit_signals, implicit_signals, trusted_signals, requeried, updated_at)
        values ('p', 't1', 'q', 0, 0, 0, 0, 0, 0, 0), ('p', 't2', 'q', 0, 0, 0, 0, 0, 0, 0)`,
    );
    await migrateFrom(db, '0016');
    expect(await rows(db, 'select trace_id, retrievals_pending from trace_stats order by trace_id')).toEqual([
      { trace_id: 't1', retrievals_pending: 1 },
      { trace_id: 't2', retrievals_pending: 1 },
    ]);
    expect(await db.prepare('select retrieved, top_ranked, clicks from chunk_stats').first()).toEqual({ retrieved: 0, top_ranked: 0, clicks: 2 });
    // corrections (3) stays; days (5) moves past the new stage to stay days; a finished run keeps its last stage.
    expect(await rows(db, 'select night, stage from loop_runs order by night')).toEqual([
      { night: '2026-11-01', stage: 13 },
      { night: '2026-11-02', stage: 3 },
      { night: '2026-11-03', stage: 6 },
    ]);
  });
  it("counts again each answer's and day's signals without context, as far as a run assessed them", async () => {
    const db = await migratedBefore('0022');
    const day = Date.parse('2026-11-02T10:00:00Z');
    await run(
      db,
      `insert into projects (id, name) values ('p', 'P');
      insert into loop_runs (project_id, night, status, stage, window_from, window_to, state, stages, started_at) values
        ('p', '2026-11-02', 'done', 13, 0, ${day + 1000}, '{}', '[]', 0);
      insert into traces (project_id, trace_id, session_id, query, answer, model, created_at, received_at) values
        ('p', 't1', 's', 'q', 'a', 'm', ${day}, ${day}), ('p', 't2', 's', 'q2', 'a', 'm', ${day}, ${day}), ('p', 't3', 's', 'q3', 'a', 'm', ${day}, ${day});
      insert into feedback_events (project_id, event_id, trace_id, session_id, signal_type, signal_value, superseded, detail, client_ts, received_at) values
        ('p', 'e1', 't1', 's', 'answer_dwell', null, 0, '{}', ${day}, ${day}),
        ('p', 'e2', 't1', 's', 'web_vitals', null, 0, '{}', ${day}, ${day}),
        ('p', 'e3', 't1', 's', 'thumbs_down', -1, 0, '{}', ${day}, ${day}),
        ('p', 'e4', 't1', 's', 'attribution', null, 0, '{}', ${day}, ${day}),
        ('p', 'e5', 't1', 's', 'thumbs_up', 1, 1, '{}', ${day}, ${day}),
        ('p', 'e6', 't1', 's', 'copy_answer', 0.7, 0, '{}', ${day}, ${day + 5000}),
        ('p', 'e7', 't2', 's', 'answer_dwell', null, 0, '{}', ${day}, ${day}),
        ('p', 'e8', 't3', 's', 'regenerate', -0.7, 0, '{}', ${day}, ${day});
      insert into event_assessments (project_id, event_id, trace_id, attributed_trace_id, confidence, rules, assessed_at) values
        ('p', 'e8', 't3', 't2', 0.7, '[]', 0);
      insert into trace_stats (project_id, trace_id, query_key, created_at, live_signals, explicit_signals, implicit_signals, trusted_signals, requeried, updated_at) values
        ('p', 't1', 'q', ${day}, 4, 2, 1, 1, 0, 0), ('p', 't2', 'q2', ${day}, 2, 0, 2, 1, 0, 0), ('p', 't3', 'q3', ${day}, 0, 0, 0, 0, 0, 0);
      insert into day_stats (project_id, day, traces, with_signals, with_trusted, explicit_signals, implicit_signals, signals, trusted_signals, negative, requeried) values
        ('p', '2026-11-02', 3, 2, 2, 2, 3, 6, 2, 1, 0), ('p', '2026-08-01', 5, 5, 1, 1, 5, 6, 1, 0, 0)`,
    );
    await migrateFrom(db, '0022');
    // t1: the thumbs-down alone (context, its reason, a superseded vote and an event no run assessed yet are not counted);
    // t2: the regenerate attributed to it; t3: nothing left.
    expect(await rows(db, 'select trace_id, live_signals, explicit_signals, implicit_signals, trusted_signals from trace_stats order by trace_id')).toEqual([
      { trace_id: 't1', live_signals: 1, explicit_signals: 1, implicit_signals: 0, trusted_signals: 1 },
      { trace_id: 't2', live_signals: 1, explicit_signals: 0, implicit_signals: 1, trusted_signals: 1 },
      { trace_id: 't3', live_signals: 0, explicit_signals: 0, implicit_signals: 0, trusted_signals: 0 },
    ]);
    // A day retention has reached (its answers no longer stored) keeps its counts.
    expect(await rows(db, 'select day, with_signals, signals, explicit_signals, implicit_signals from day_stats order by day')).toEqual([
      { day: '2026-08-01', with_signals: 5, signals: 6, explicit_signals: 1, implicit_signals: 5 },
      { day: '2026-11-02', with_signals: 2, signals: 2, explicit_signals: 1, implicit_signals: 1 },
    ]);
  });
  it("dates again each stored correction by the browser's clock held between its answer and its arrival", async () => {
    const db = await migratedBefore('0022');
    const answered = Date.parse('2026-11-02T10:00:00Z');
    const arrived = answered + 60_000;
    await run(
      db,
      `insert into traces (project_id, trace_id, session_id, query, answer, model, created_at, received_at) values
        ('p', 't1', 's', 'q', 'a', 'm', ${answered}, ${answered});
      insert into feedback_events (project_id, event_id, trace_id, session_id, signal_type, signal_value, superseded, detail, client_ts, received_at) values
        ('p', 'ahead', 't1', 's', 'correction', -1, 0, '{}', ${arrived + 86_400_000}, ${arrived}),
        ('p', 'behind', 't1', 's', 'correction', -1, 0, '{}', ${answered - 7 * 86_400_000}, ${arrived}),
        ('p', 'fine', 't1', 's', 'correction', -1, 0, '{}', ${answered + 30_000}, ${arrived});
      insert into corrections (project_id, event_id, trace_id, query, text, confidence, status, created_at) values
        ('p', 'ahead', 't1', 'q', 'x', 0.9, 'open', ${arrived + 86_400_000}),
        ('p', 'behind', 't1', 'q', 'x', 0.9, 'open', ${answered - 7 * 86_400_000}),
        ('p', 'fine', 't1', 'q', 'x', 0.9, 'resolved', ${answered + 30_000})`,
    );
    await migrateFrom(db, '0022');
    expect(await rows(db, 'select event_id, created_at from corrections order by event_id')).toEqual([
      { event_id: 'ahead', created_at: arrived },
      { event_id: 'behind', created_at: answered },
      { event_id: 'fine', created_at: answered + 30_000 },
    ]);
  });

  it("keeps each day's drop count as one report of that day", async () => {
    const db = await migratedBefore('0029');
    await run(db, `insert into client_drops (project_id, day, dropped) values ('p', '2026-11-01', 7), ('p', '2026-11-02', 3), ('q', '2026-11-01', 1)`);
    await migrateFrom(db, '0029');
    expect(
      await rows(db, 'select project_id, day, sum(dropped) as dropped from client_drop_reports group by project_id, day order by project_id, day'),
    ).toEqual([
      { project_id: 'p', day: '2026-11-01', dropped: 7 },
      { project_id: 'p', day: '2026-11-02', dropped: 3 },
      { project_id: 'q', day: '2026-11-01', dropped: 1 },
    ]);
    expect(await rows(db, "select name from sqlite_master where name = 'client_drops'")).toEqual([]);
  });

  it('keeps as purged what a day retention reached counted, and leaves a day still holding some of its answers as counted', async () => {
    const db = await migratedBefore('0040');
    // Retention purged before 2026-08-01; one answer of 2026-07-02 is still stored (it arrived late).
    await run(
      db,
      `insert into projects (id, name) values ('p', 'P');
      insert into loop_runs (project_id, night, status, stage, window_from, window_to, state, stages, started_at)
        values ('p', '2026-11-01', 'done', 16, 0, 1000, '{"purgedBefore":${Date.UTC(2026, 7, 1)}}', '[]', 0);
      insert into traces (project_id, trace_id, query, answer, model, created_at, received_at)
        values ('p', 'late', 'q', 'a', 'm', ${Date.UTC(2026, 6, 2, 23)}, ${Date.UTC(2026, 6, 3, 1)});
      insert into day_stats (project_id, day, traces, with_signals, with_trusted, explicit_signals, implicit_signals, signals, trusted_signals, negative, requeried)
        values ('p', '2026-07-01', 5, 4, 3, 2, 2, 4, 3, 1, 1), ('p', '2026-07-02', 6, 0, 0, 0, 0, 0, 0, 0, 0), ('p', '2026-10-01', 7, 0, 0, 0, 0, 0, 0, 0, 0);
      insert into document_days (project_id, source_doc_id, source_doc_versions, day, traces, scored, negative, positive, requeried, worst)
        values ('p', 'a.md', '[""]', '2026-07-01', 5, 3, 1, 1, 1, '[]'), ('p', 'a.md', '[""]', '2026-07-02', 6, 0, 0, 0, 0, '[]'),
          ('p', 'a.md', '[""]', '2026-10-01', 7, 0, 0, 0, 0, '[]')`,
    );
    await migrateFrom(db, '0040');
    expect(await rows(db, 'select day, purged_traces, purged_with_trusted, purged_negative from day_stats order by day')).toEqual([
      { day: '2026-07-01', purged_traces: 5, purged_with_trusted: 3, purged_negative: 1 },
      { day: '2026-07-02', purged_traces: null, purged_with_trusted: 0, purged_negative: 0 },
      { day: '2026-10-01', purged_traces: 0, purged_with_trusted: 0, purged_negative: 0 },
    ]);
    expect(await rows(db, 'select day, purged_traces, purged_scored, purged_positive from document_days order by day')).toEqual([
      { day: '2026-07-01', purged_traces: 5, purged_scored: 3, purged_positive: 1 },
      { day: '2026-07-02', purged_traces: 0, purged_scored: 0, purged_positive: 0 },
      { day: '2026-10-01', purged_traces: 0, purged_scored: 0, purged_positive: 0 },
    ]);
  });

  it('counts each day archived before days were written in pieces as one object', async () => {
    const db = await migratedBefore('0041');
    await run(
      db,
      `insert into archived_days (project_id, kind, day, rows, last_received_at, stale, archived_at)
        values ('p', 'events', '2026-11-01', 12, 5, 0, 9), ('p', 'traces', '2026-11-01', 0, 0, 0, 9)`,
    );
    await migrateFrom(db, '0041');
    expect(await rows(db, 'select kind, rows, pieces from archived_days order by kind')).toEqual([
      { kind: 'events', rows: 12, pieces: 1 },
      { kind: 'traces', rows: 0, pieces: 1 },
    ]);
  });

  it('has each stored model read its training data at its night, or by now when its night is still to come', async () => {
    const db = await migratedBefore('0044');
    const ahead = Date.now() + 8 * 86_400_000;
    await db
      .prepare(
        `insert into models (project_id, version, created_at, trained_by, artifact, bytes, confirmed, evaluation, decision, reasons)
         values ('p', 'past', 1000, 'nightly', '{}', 2, 3, '{}', 'promoted', '[]'), ('p', 'ahead', ?, 'nightly', '{}', 2, 3, '{}', 'rejected', '[]')`,
      )
      .bind(ahead)
      .run();
    const before = Date.now();
    await migrateFrom(db, '0044');
    const [past, future] = await rows(db, "select version, created_at, data_read_at from models order by version = 'ahead'");
    expect(past).toEqual({ version: 'past', created_at: 1000, data_read_at: 1000 });
    expect(future).toMatchObject({ version: 'ahead', created_at: ahead });
    expect(future!.data_read_at).toBeGreaterThanOrEqual(before);
    expect(future!.data_read_at).toBeLessThanOrEqual(Date.now());
  });

  it("marks a stored model's read unknown when it holds none, or the read of a model recorded before it", async () => {
    const db = await migratedBefore('0050');
    // Recorded in this order: a first model sent without its read, one with its own, one sent
    // without it (the read before it copied), and one of another project at the same moment.
    await run(
      db,
      `insert into models (project_id, version, created_at, data_read_at, trained_by, artifact, bytes, confirmed, evaluation, decision, reasons) values
        ('p', 'first', 1000, 0, 'retrain', '{}', 2, 3, '{}', 'promoted', '[]'),
        ('p', 'nightly', 2000, 1500, 'nightly', '{}', 2, 3, '{}', 'promoted', '[]'),
        ('p', 'by-hand', 3000, 1500, 'retrain', '{}', 2, 3, '{}', 'promoted', '[]'),
        ('q', 'own', 3000, 1500, 'nightly', '{}', 2, 3, '{}', 'promoted', '[]')`,
    );
    await migrateFrom(db, '0050');
    expect(await rows(db, 'select project_id, version, data_read_at, data_read_unknown from models order by rowid')).toEqual([
      { project_id: 'p', version: 'first', data_read_at: 0, data_read_unknown: 1 },
      { project_id: 'p', version: 'nightly', data_read_at: 1500, data_read_unknown: 0 },
      { project_id: 'p', version: 'by-hand', data_read_at: 1500, data_read_unknown: 1 },
      { project_id: 'q', version: 'own', data_read_at: 1500, data_read_unknown: 0 },
    ]);
  });

  it('has each correction already in the inbox name the answer its verdict moved it onto', async () => {
    const db = await migratedBefore('0030');
    await run(
      db,
      `insert into corrections (project_id, event_id, trace_id, query, text, confidence, status, created_at) values
        ('p', 'moved', 't2', 'and then?', 'x', 0.9, 'open', 1), ('p', 'stayed', 't2', 'and then?', 'x', 0.9, 'open', 1), ('p', 'unassessed', 't2', 'and then?', 'x', 0.9, 'open', 1);
      insert into event_assessments (project_id, event_id, trace_id, attributed_trace_id, confidence, rules, assessed_at) values
        ('p', 'moved', 't2', 't1', 0.9, '[]', 1), ('p', 'stayed', 't2', 't2', 0.9, '[]', 1)`,
    );
    await migrateFrom(db, '0030');
    expect(await rows(db, 'select event_id, attributed_trace_id from corrections order by event_id')).toEqual([
      { event_id: 'moved', attributed_trace_id: 't1' },
      { event_id: 'stayed', attributed_trace_id: null },
      { event_id: 'unassessed', attributed_trace_id: null },
    ]);
  });
});
