import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { countedD1 } from '../storage/sql/counted-d1.ts';
import { counts, newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';
import { MIN_QUERY_BUDGET, SLICE_QUERY_RESERVE } from './query-budget.ts';

const chunks = [
  { chunkId: 'ship-1', sourceDocId: 'shipping.md', score: 0.9, rank: 1, text: 'Shipping to Canada takes 5 to 8 business days.' },
  { chunkId: 'refund-1', sourceDocId: 'refunds.md', score: 0.7, rank: 2, text: 'Opened items can be refunded within 14 days of delivery.' },
];

/** A project with a few days of answers and feedback, for a night with something in every stage. */
async function busyProject() {
  const p = await newProject();
  const at = Date.now() - 3 * 86_400_000;
  const traces = Array.from({ length: 12 }, (_, i) =>
    trace({
      traceId: `t-${i}`,
      sessionId: `s-${i % 4}`,
      query: `refund question ${i % 3}`,
      retrievedChunks: chunks,
      rerankedChunks: undefined,
      createdAt: at + i * 3_600_000,
    }),
  );
  await sendTraffic(
    p,
    traces,
    traces.flatMap((t, i) => [
      { traceId: t.traceId, sessionId: t.sessionId!, signalType: i % 3 ? ('thumbs_down' as const) : ('thumbs_up' as const) },
      { traceId: t.traceId, sessionId: t.sessionId!, signalType: 'citation_click' as const, detail: { chunkId: i % 2 ? 'ship-1' : 'refund-1' } },
    ]),
  );
  return p;
}

describe('the D1 query budget of one invocation', () => {
  it("counts every query run through the binding, a batch as its statements, an exec as the statements it ran, a session's, and batches its own statements", async () => {
    const { db, queries } = countedD1(env.DB);
    await db.prepare('select 1').first();
    await db.prepare('select ?1 as x').bind(2).all();
    const [a, b, c] = await db.batch([db.prepare('select ?1 as x').bind(3), db.prepare('select 4 as x'), env.DB.prepare('select 5 as x')]);
    expect([a!.results, b!.results, c!.results]).toEqual([[{ x: 3 }], [{ x: 4 }], [{ x: 5 }]]);
    expect(queries()).toBe(5);
    await db.exec('select 6');
    expect(queries()).toBe(6);
    // D1 runs each line of an exec's SQL as a statement of its own, and counts them in its answer.
    expect((await db.exec('select 7\nselect 8\nselect 9')).count).toBe(3);
    expect(queries()).toBe(9);
    // One that fails partway counts every line, the safe reading: D1 ran some of them.
    await expect(db.exec('select 10\nselect * from nowhere')).rejects.toThrow(/no such table: nowhere/);
    expect(queries()).toBe(11);
    const session = db.withSession('first-primary');
    expect(await session.prepare('select ?1 as x').bind(11).first('x')).toBe(11);
    await session.batch([session.prepare('select 12'), session.prepare('select 13')]);
    expect(queries()).toBe(14);
  });

  it('stops starting slices before the budget runs out, and the invocations after finish the night as one would', async () => {
    const [tight, free] = [await busyProject(), await busyProject()];
    const now = Date.now();
    const budget = 3 * SLICE_QUERY_RESERVE;
    let invocations = 0;
    for (let done = false; !done; invocations++) {
      expect(invocations).toBeLessThan(40);
      const { db, queries } = countedD1(env.DB);
      const summary = await runNightly({ ...env, DB: db }, now, { projects: [tight.id], queryBudget: budget, tracesPerSlice: 5 });
      expect(queries()).toBeLessThanOrEqual(budget);
      done = summary.done;
    }
    expect(invocations).toBeGreaterThan(1);
    const one = await runNightly(env, now, { projects: [free.id], tracesPerSlice: 5 });
    expect(one.done).toBe(true);
    // Both projects got the same traffic (their own ids aside), so the same rows came of it.
    expect(await counts(tight.id)).toEqual(await counts(free.id));
    for (const stage of one.runs[0]!.stages) {
      expect(stage.sliceQueriesMax, stage.name).toBeLessThan(SLICE_QUERY_RESERVE);
    }
  });

  it("starts a project's night in one statement that takes its hold, with the window after the last night's, and reads its settings once held", async () => {
    const p = await newProject();
    const at = Date.now();
    const before = await runNightly(env, at - 86_400_000, { projects: [p.id] });
    expect(before.done).toBe(true);
    const { db, queries } = countedD1(env.DB);
    expect((await runNightly({ ...env, DB: db }, at, { projects: [p.id], maxSlices: 0 })).runs).toMatchObject([{ status: 'running', stage: 'prepare' }]);
    // Whose night is done; the hold, which starts the run; the settings; letting go. A failed slice's save would be the fifth.
    expect(queries()).toBe(4);
    const windows = await env.DB.prepare('select window_from, window_to, lease_owner from loop_runs where project_id = ? order by night').bind(p.id).all();
    expect(windows.results).toEqual([
      { window_from: 0, window_to: at - 86_400_000, lease_owner: null },
      { window_from: at - 86_400_000, window_to: at, lease_owner: null },
    ]);
  });

  it('refuses a budget too small to ever start a night, saying so, rather than leaving every night waiting unnoticed', async () => {
    const p = await busyProject();
    const small = { ...env, NIGHTLY_QUERY_BUDGET: String(MIN_QUERY_BUDGET - 1) };
    await expect(runNightly(small, Date.now(), { projects: [p.id], isolate: true })).rejects.toThrow(/NIGHTLY_QUERY_BUDGET.*below the \d+/);
    expect(await env.DB.prepare('select count(*) as n from loop_runs where project_id = ?').bind(p.id).first('n')).toBe(0);
    expect((await runNightly({ ...env, NIGHTLY_QUERY_BUDGET: String(MIN_QUERY_BUDGET) }, Date.now(), { projects: [p.id] })).runs[0]!.stages).not.toEqual([]);
  });

  it('passes over projects whose night is done without a query each, and leaves those it cannot start for the next invocation', async () => {
    const projects = [await busyProject(), await busyProject(), await busyProject()].map((p) => p.id);
    const now = Date.now();
    await runNightly(env, now, { projects: [projects[0]!] });
    const { db, queries } = countedD1(env.DB);
    // Room for one project's start and a slice or so: the second project starts, the third waits.
    const summary = await runNightly({ ...env, DB: db }, now, { projects, queryBudget: SLICE_QUERY_RESERVE + 10 });
    expect(queries()).toBeLessThanOrEqual(SLICE_QUERY_RESERVE + 10);
    expect(summary.runs.map((r) => [r.status, r.stages.length > 0])).toEqual([
      ['done', true],
      ['running', true],
      ['running', false],
    ]);
    expect(summary.done).toBe(false);
  });
});
