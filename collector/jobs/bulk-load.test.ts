import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time.ts';
import { deferIndexes, restoreLeftIndexes, restoreOwnIndexes } from '../storage/deferred-indexes.ts';
import { leaseRun } from '../storage/loop-runs.ts';
import { newProject, sendTraffic as send, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

// Every run loading in bulk is in this file, so no other file's test sees an index deferred; other
// files' runs may build ours again before we do, so tests check what is there, not who built it.

const definitionOf = async (name: string) =>
  (await env.DB.prepare(`select sql from sqlite_master where type = 'index' and name = ?`).bind(name).first<{ sql: string }>())?.sql ?? null;
const deferred = async (name: string) =>
  (await env.DB.prepare('select definition from deferred_indexes where name = ?').bind(name).first<{ definition: string }>())?.definition ?? null;
/** Loads the tests' few traces in bulk, however many rows other tests left in the tables. */
const BULK = { fromTraces: 1, share: 0 };
const INDEXES = ['trace_stats_score', 'trace_stats_query', 'trace_stats_explicit', 'review_item_traces_trace', 'review_items_queue'];
const definitions = () => Promise.all(INDEXES.map(definitionOf));
const stageCounts = (summary: Awaited<ReturnType<typeof runNightly>>, name: string) => summary.runs[0]!.stages.find((s) => s.name === name)!.counts;

const chunks = [
  { chunkId: 'shipping-1', sourceDocId: 'shipping.md', score: 0.9, rank: 1, text: 'Shipping to Canada takes 5 to 8 business days.' },
  { chunkId: 'refund-1', sourceDocId: 'refunds.md', score: 0.7, rank: 2, text: 'Opened items can be refunded within 14 days of delivery.' },
];

/** When the tests' answers were given: the same in every project, so that projects compare. */
const ANSWERED = Date.now() - 60_000;

/** Answers to two questions, judged bad or good, one with a click on a citation. */
async function traffic(n = 3) {
  const p = await newProject();
  const traces = Array.from({ length: n }, (_, i) =>
    trace({
      traceId: `t-${i}`,
      sessionId: `s-${i}`,
      query: `refund question ${i % 2}`,
      retrievedChunks: chunks,
      rerankedChunks: undefined,
      createdAt: ANSWERED,
    }),
  );
  await send(
    p,
    traces,
    traces.flatMap((t, i) => [
      { eventId: `e-${i}`, traceId: t.traceId, sessionId: t.sessionId!, signalType: i % 3 ? ('thumbs_down' as const) : ('thumbs_up' as const) },
      ...(i % 3
        ? []
        : [{ eventId: `c-${i}`, traceId: t.traceId, sessionId: t.sessionId!, signalType: 'citation_click' as const, detail: { chunkId: 'refund-1' } }]),
    ]),
  );
  return p;
}

/** What a run produced, without times and the project. */
async function produced(projectId: string) {
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries({
    trace_stats: 'trace_id',
    review_items: 'item_id',
    review_item_traces: 'item_id, trace_id',
    event_assessments: 'event_id',
  })) {
    const { results } = await env.DB.prepare(`select * from ${table} where project_id = ? order by ${order}`).bind(projectId).all<Record<string, unknown>>();
    out[table] = results.map(({ project_id, updated_at, mined_at, assessed_at, ...row }) => row);
  }
  return out;
}

describe('a bulk load', () => {
  it('keeps an index definition while the index is dropped, and builds it again as it was', async () => {
    const table = `bulk_probe_${crypto.randomUUID().replaceAll('-', '')}`;
    const index = `${table}_b`;
    await env.DB.batch([env.DB.prepare(`create table ${table} (a text, b integer)`), env.DB.prepare(`create unique index ${index} on ${table} (a, b desc)`)]);
    const before = await definitionOf(index);
    expect(before).toContain('(a, b desc)');
    // Its owner, a run going on (on a night no other test reaches): no other run builds it again meanwhile.
    const owner = { projectId: table, night: '9999-12-31' };
    await leaseRun(env.DB, owner.projectId, owner.night, Date.now(), { owner: 'bulk-test', until: Date.now() + 60_000 }, Date.now());
    await env.DB.batch(deferIndexes(env.DB, owner, [index]));
    expect(await definitionOf(index)).toBeNull();
    expect(await deferred(index)).toBe(before);
    // Deferring again (a slice done twice) keeps the definition it kept first.
    await env.DB.batch(deferIndexes(env.DB, owner, [index]));
    expect(await deferred(index)).toBe(before);
    expect(await restoreLeftIndexes(env.DB, utcDay(Date.now()))).toBeGreaterThanOrEqual(0);
    expect(await definitionOf(index)).toBeNull();
    expect(await restoreOwnIndexes(env.DB, owner)).toBe(1);
    expect(await definitionOf(index)).toBe(before);
    expect(await deferred(index)).toBeNull();
    // Once its run is over, any run builds it again.
    await env.DB.batch(deferIndexes(env.DB, owner, [index]));
    await env.DB.prepare(`update loop_runs set status = 'done' where project_id = ?`).bind(owner.projectId).run();
    expect(await restoreLeftIndexes(env.DB, owner.night)).toBeGreaterThanOrEqual(1);
    expect(await definitionOf(index)).toBe(before);
  });

  it('defers the out-of-order indexes of trace aggregates while assessing and of review items while mining, and builds them again after', async () => {
    const before = await definitions();
    expect(before.every((d) => d !== null)).toBe(true);
    const p = await traffic();
    const summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id], bulk: BULK, tracesPerSlice: 2 });
    expect(summary.done).toBe(true);
    expect(stageCounts(summary, 'assess')).toMatchObject({ traces: 3, deferredIndexes: 3 });
    expect(stageCounts(summary, 'mine')).toMatchObject({ judged: 3, deferredIndexes: 2 });
    expect(await definitions()).toEqual(before);
    expect(await Promise.all(INDEXES.map(deferred))).toEqual(INDEXES.map(() => null));
    // Below the threshold (the default, ten thousand traces) nothing is deferred.
    const plain = await runNightly(env, Date.now() + 1_000, { projects: [(await traffic()).id] });
    expect(stageCounts(plain, 'assess')).not.toHaveProperty('deferredIndexes');
    expect(stageCounts(plain, 'mine')).not.toHaveProperty('deferredIndexes');
  });

  it('ends a bulk run cut after every slice where a plain uncut run ends', async () => {
    const [plain, bulk] = [await traffic(7), await traffic(7)];
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projects: [plain.id], tracesPerSlice: 2 });
    let steps = 0;
    while (!(await runNightly(env, now, { projects: [bulk.id], tracesPerSlice: 2, maxSlices: 1, bulk: BULK })).done) steps++;
    expect(steps).toBeGreaterThan(10);
    const runStages = (await env.DB.prepare('select stages from loop_runs where project_id = ?').bind(bulk.id).first<{ stages: string }>())!.stages;
    expect(runStages).toContain('"deferredIndexes":3');
    expect(runStages).toContain('"deferredIndexes":2');
    const [bulkRows, plainRows] = [await produced(bulk.id), await produced(plain.id)];
    for (const table of Object.keys(plainRows)) expect([table, bulkRows[table]]).toEqual([table, plainRows[table]]);
    expect(bulkRows.review_items!.length).toBeGreaterThan(0);
    expect(bulkRows).toEqual(plainRows);
  });

  it('builds them again in the next run when a run stops in the middle of a bulk load', async () => {
    const before = await definitions();
    const p = await traffic();
    // Prepare's three slices, then assess's first: it defers the indexes and assesses two traces of three.
    const cut = await runNightly(env, Date.now() + 1_000, { projects: [p.id], bulk: BULK, tracesPerSlice: 2, maxSlices: 4 });
    expect(cut.runs[0]!.stage).toBe('assess');
    expect(stageCounts(cut, 'assess')).toMatchObject({ deferredIndexes: 3 });
    expect(await definitionOf('trace_stats_score')).toBeNull();
    // The night passes without the run continuing; the next night's run builds them in its first slice.
    const nextNight = Date.now() + 86_400_000;
    await runNightly(env, nextNight, { projects: [p.id], maxSlices: 1 });
    expect(await definitions()).toEqual(before);
    expect((await runNightly(env, nextNight, { projects: [p.id] })).done).toBe(true);
  });
});
