import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../../shared/schema/settings.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { newProject, planOf } from '../../test/fixtures.ts';
import { stageContext } from '../../test/stage-context.ts';
import { firstKeptAggregateDay } from './raw-cutoff.ts';
import { retention } from './retention.ts';
import type { StageContext } from './stage.ts';

/** The raw tables, which hold every answer and event of the retention window. */
const RAW_TABLES = ['traces', 'trace_chunks', 'trace_stats', 'feedback_events', 'event_assessments'];

/**
 * The statements of one retention slice, as prepared and bound, without running them, and the
 * calls that would have sent them to D1 (`batch`, or a statement's own `first`, `all`, `run`, `raw`).
 */
async function sliceStatements(now: number, cursor: string | null = null): Promise<{ statements: { sql: string; params: unknown[] }[]; calls: string[] }> {
  const statements: { sql: string; params: unknown[] }[] = [];
  const calls: string[] = [];
  const db = {
    prepare(sql: string) {
      const alone = (call: string) => async () => {
        calls.push(call);
        statements.push(statement);
        return call === 'first' ? null : { results: [], meta: { changes: 0 } };
      };
      const statement = {
        sql,
        params: [] as unknown[],
        bind: (...params: unknown[]) => Object.assign(statement, { params }),
        first: alone('first'),
        all: alone('all'),
        run: alone('run'),
        raw: alone('raw'),
      };
      return statement;
    },
    async batch(batch: { sql: string; params: unknown[] }[]) {
      calls.push('batch');
      statements.push(...batch);
      return batch.map(() => ({ meta: { changes: 0 } }));
    },
  };
  const ctx = { db, projectId: 'p', night: new Date(now).toISOString().slice(0, 10), now, purgeNow: now, settings: DEFAULT_LOOP_SETTINGS };
  await retention.slice(ctx as unknown as StageContext, cursor);
  return { statements, calls };
}

describe("retention's plans", () => {
  it('reach the raw rows through the answers due alone, never by walking all the project holds', async () => {
    const { results: indexes } = await env.DB.prepare(`select name, tbl_name as tbl from sqlite_master where type = 'index'`).all<{
      name: string;
      tbl: string;
    }>();
    const rawIndexes = new Set(indexes.filter((i) => RAW_TABLES.includes(i.tbl)).map((i) => i.name));
    const walks: string[] = [];
    const { statements } = await sliceStatements(Date.now());
    expect(statements.length).toBeGreaterThan(20);
    for (const { sql, params } of statements) {
      for (const step of await planOf(sql, ...params)) {
        // A raw table's index searched on the project alone, or on a range that is not the arrival
        // cutoff (a session id not null), is every row of the project: seconds a night at volume.
        const search = step.match(/USING (?:COVERING )?INDEX (\S+) \((.*)\)$/);
        const everyRow = search && rawIndexes.has(search[1]!) && !/=\?.* AND \w+=\?|received_at<\?/.test(search[2]!);
        // The walk of the events' type index finds each type by one seek (min), not by reading the rows.
        const typeSeek = /feedback_type_received \(project_id=\?( AND signal_type>\?)?\)$/.test(step);
        if ((everyRow && !typeSeek) || new RegExp(`^SCAN (${RAW_TABLES.join('|')})\\b`).test(step))
          walks.push(`${step}  in  ${sql.replace(/\s+/g, ' ').slice(0, 100)}`);
      }
    }
    expect(walks).toEqual([]);
  });

  it('chooses the events due on the type index alone, reading no event row to choose them', async () => {
    const { statements } = await sliceStatements(Date.now());
    const arrivals: string[] = [];
    for (const { sql, params } of statements)
      for (const step of await planOf(sql, ...params)) if (/feedback_type_received \(.*received_at<\?\)/.test(step)) arrivals.push(step);
    // A day's purge is dozens of slices, and each would read every event of the day still due.
    expect(arrivals.length).toBeGreaterThanOrEqual(3);
    expect(arrivals.filter((step) => !/USING COVERING INDEX/.test(step))).toEqual([]);
  });

  it("asks whether a chunk's text is still used of the chunk index alone, reading no chunk row", async () => {
    const { statements } = await sliceStatements(Date.now());
    const texts = statements.filter(({ sql }) => /delete from chunk_texts/.test(sql));
    expect(texts).toHaveLength(1);
    const steps = await planOf(texts[0]!.sql, ...texts[0]!.params);
    // A chunk retrieved in many answers has a row for each: at volume, most of a purge's time.
    expect(steps.filter((step) => /\btrace_chunks\b|SEARCH c /.test(step))).toEqual([
      'SEARCH c USING COVERING INDEX trace_chunks_chunk (project_id=? AND chunk_id=?)',
    ]);
  });

  it("reads each purged answer and its stats once for the documents' purged counts, not again for each document it cited", async () => {
    const { statements } = await sliceStatements(Date.now());
    const counts = statements.filter(({ sql }) => /update document_days set purged_/.test(sql));
    expect(counts).toHaveLength(1);
    const steps = await planOf(counts[0]!.sql, ...counts[0]!.params);
    // The answer, its stats, then its chunk rows grouped once by document: ten or so documents an answer.
    expect(steps.filter((step) => /^SEARCH [tsc] /.test(step)).map((step) => step.split(' ')[1])).toEqual(['t', 's', 'c']);
    expect(steps.filter((step) => /TEMP B-TREE FOR DISTINCT/.test(step))).toEqual([]);
  });

  it('looks at the waiting items whose answers it purged, listed on the answers index, not every item waiting', async () => {
    const { statements } = await sliceStatements(Date.now());
    const steps: string[] = [];
    for (const { sql, params } of statements) steps.push(...(await planOf(sql, ...params)));
    // The queue holds every item mined and not reviewed: hundreds of thousands at volume, growing.
    expect(steps.filter((step) => /review_items_queue/.test(step))).toEqual([]);
    expect(steps).toContain('SEARCH r USING INDEX review_item_traces_trace (project_id=? AND trace_id=?)');
  });

  it("reads every chunk's counts for those to expire in a run's first slice alone, not in each slice of a day's purge", async () => {
    const chunkCounts = async (cursor: string | null) =>
      (await sliceStatements(Date.now(), cursor)).statements.filter(({ sql }) => /delete from chunk_stats/.test(sql)).map(({ params }) => params[2]);
    expect(await chunkCounts(null)).toEqual([1]);
    expect(await chunkCounts('more')).toEqual([0]);
  });

  it('sends a slice to D1 as one batch: whether raw rows are due is read in it, not asked before it', async () => {
    const { statements, calls } = await sliceStatements(Date.now());
    expect(calls).toEqual(['batch']);
    expect(statements.length).toBeGreaterThan(20);
  });
});

describe("retention's aggregate lines", () => {
  it('keeps the first day the aggregates keep, and a session whose last answer was made on it, however early its first', async () => {
    const p = await newProject();
    const now = Date.now();
    const keptDay = firstKeptAggregateDay(now, DEFAULT_LOOP_SETTINGS.aggregateRetentionDays);
    const kept = Date.parse(`${keptDay}T00:00:00Z`);
    const day = (d: string) =>
      env.DB.prepare(
        `insert into day_stats (project_id, day, traces, with_signals, with_trusted, explicit_signals, implicit_signals, signals, trusted_signals, negative, requeried)
         values (?, ?, 1, 0, 0, 0, 0, 0, 0, 0, 0)`,
      ).bind(p.id, d);
    const session = (id: string, firstAt: number, lastAt: number) =>
      env.DB.prepare(
        'insert into session_stats (project_id, session_id, traces, scored, negative, requeried, first_at, last_at) values (?, ?, 1, 0, 0, 0, ?, ?)',
      ).bind(p.id, id, firstAt, lastAt);
    await env.DB.batch([
      day(utcDay(kept - DAY_MS)),
      day(keptDay),
      session('before', kept - 2 * DAY_MS, kept - 1),
      session('spanning', kept - 2 * DAY_MS, kept + 60_000),
    ]);
    await retention.slice(stageContext(p.id, now), null);
    const rows = async (sql: string) => (await env.DB.prepare(sql).bind(p.id).all()).results;
    expect(await rows('select day from day_stats where project_id = ?')).toEqual([{ day: keptDay }]);
    expect(await rows('select session_id from session_stats where project_id = ?')).toEqual([{ session_id: 'spanning' }]);
  });
});
