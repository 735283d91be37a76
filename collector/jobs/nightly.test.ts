import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { queryKey } from '../../shared/terms.ts';
import { utcDay } from '../../shared/time.ts';
import { isHeldOut } from '../loop/eval-sets.ts';
import { LOW_CONFIDENCE } from '../loop/noise.ts';
import { adminCall as admin, bearer, call, event, newProject, ORIGIN, reviewRowsOf, sendTraffic, trace } from '../test/fixtures.ts';
import { hookedD1 } from '../test/hooked-d1.ts';
import { runNightly } from './nightly.ts';
import { STAGES } from './stages/index.ts';

const send = sendTraffic;

/** After the events were stored: the night's run sees everything sent so far. */
const tonight = () => Date.now() + 1_000;

const chunks = [
  { chunkId: 'shipping-1', sourceDocId: 'shipping.md', score: 0.9, rank: 1, text: 'Shipping to Canada takes 5 to 8 business days.' },
  { chunkId: 'credit-1', sourceDocId: 'credit.md', score: 0.8, rank: 2, text: 'Store credit is issued for opened items and never expires.' },
  { chunkId: 'refund-1', sourceDocId: 'refunds.md', score: 0.7, rank: 3, text: 'Opened items can be refunded within 14 days of delivery.' },
];

/** A wording of the refund question whose key is held out for the eval sets, or not. */
const questionWhere = (heldOut: boolean) => {
  for (let i = 0; ; i++) if (isHeldOut(queryKey(`refund for opened items v${i}?`)) === heldOut) return `refund for opened items v${i}?`;
};

/** `n` wordings of the refund question whose keys are held out for the eval sets, or not. */
const questionsWhere = (heldOut: boolean, n: number) => {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) if (isHeldOut(queryKey(`refund for opened items v${i}?`)) === heldOut) out.push(`refund for opened items v${i}?`);
  return out;
};

/** The question `query` as the team's curated suite holds it, under the id `id`. */
const curate = (p: Parameters<typeof admin>[0], id: string, query: string) =>
  admin(p, `/eval-suite/${id}`, {
    method: 'PUT',
    json: {
      query,
      candidates: [{ chunkId: 'refund-1', sourceDocId: 'refunds.md', text: chunks[2]!.text }],
      judgements: [{ chunkId: 'refund-1', relevance: 1 }],
    },
  });

const badTrace = (over: Partial<TraceInput> = {}) =>
  trace({ query: 'refund for opened items?', retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000, ...over });

/** Two turns of one user's conversation: an answer, and a follow-up about something else. */
const earlierTurnAndFollowUp = () => {
  const t0 = Date.now() - 600_000;
  const turn = (i: number, query: string, answer: string) =>
    badTrace({ userIdHash: 'u1', sessionId: 'shared', turnIndex: i, createdAt: t0 + i * 60_000, query, answer });
  return [
    turn(0, 'And if the item was opened?', 'Opened items are refunded as store credit [1].'),
    turn(1, 'Do you ship to Canada?', 'Yes, shipping to Canada takes 5 to 8 days [2].'),
  ] as const;
};

/** A correction sent on the follow-up that is about the earlier answer. */
const correctionOn = (followUp: TraceInput) => ({
  traceId: followUp.traceId,
  sessionId: 'shared',
  clientTs: followUp.createdAt + 40_000,
  signalType: 'correction' as const,
  detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
});

const statsOf = (projectId: string, traceId: string) =>
  env.DB.prepare('select live_signals, trusted_signals from trace_stats where project_id = ? and trace_id = ?').bind(projectId, traceId).first();

/** Every loop table's rows of one project, without times and the project id: what a run produced. */
async function loopState(projectId: string) {
  const tables = {
    event_assessments: 'event_id',
    trace_stats: 'trace_id',
    review_items: 'item_id',
    review_item_traces: 'item_id, trace_id',
    mining_thresholds: 'to_value',
    chunk_stats: 'chunk_id',
  };
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(tables)) {
    const { results } = await env.DB.prepare(`select * from ${table} where project_id = ? order by ${order}`).bind(projectId).all<Record<string, unknown>>();
    out[table] = results.map(({ project_id, assessed_at, updated_at, mined_at, at, ...row }) => row);
  }
  return out;
}

describe('the nightly job', () => {
  it('mines nothing from an answer scored at the bad line, a lone bounce (-0.3): the seed mines only below it', async () => {
    const p = await newProject();
    const t = badTrace();
    await send(p, [t], [{ traceId: t.traceId, signalType: 'bounce', detail: { ms: 4_000 } }]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const stats = await env.DB.prepare('select weighted_score, trusted_signals from trace_stats where project_id = ? and trace_id = ?')
      .bind(p.id, t.traceId)
      .first();
    expect(stats).toEqual({ weighted_score: -0.3, trusted_signals: 1 });
    expect((await admin<{ items: unknown[] }>(p, '/review')).body.items).toEqual([]);
    expect((await admin<{ traces: unknown[] }>(p, '/worst-traces')).body.traces).toEqual([]);
    const docs = await env.DB.prepare('select sum(negative) as negative from document_days where project_id = ?').bind(p.id).first();
    expect(docs).toEqual({ negative: 0 });
  });

  it('turns a flagged bad answer into a review item with its guess and evidence, and ranks it among the worst traces', async () => {
    const p = await newProject();
    const t = badTrace();
    await send(
      p,
      [t],
      [
        { traceId: t.traceId, signalType: 'thumbs_down' },
        { traceId: t.traceId, signalType: 'wrong_source', detail: { chunkId: 'shipping-1' } },
      ],
    );
    const summary = await runNightly(env, tonight(), { projects: [p.id] });
    expect(summary.done).toBe(true);
    // Every stage ran and reported, in order.
    expect(summary.runs[0]!.stages.map((s) => s.name)).toEqual(STAGES.map((s) => s.name));

    const worst = await admin<{ traces: { traceId: string; weightedScore: number; confidence: number; chunkIds: string[] }[] }>(p, '/worst-traces');
    expect(worst.body.traces.map((x) => x.traceId)).toEqual([t.traceId]);
    expect(worst.body.traces[0]!.weightedScore).toBeLessThan(-0.3);
    expect(worst.body.traces[0]!.confidence).toBeGreaterThan(0.5);
    expect(worst.body.traces[0]!.chunkIds).toEqual(['shipping-1', 'credit-1', 'refund-1']);

    const review = await admin<{
      items: {
        chunk: { chunkId: string; text: string };
        guess: string;
        guessWhy: string;
        guessWhyCode: { code: string };
        evidence: string[];
        evidenceCodes: { code: string }[];
        traceIds: string[];
        candidate: string;
      }[];
      budget: Record<string, number>;
    }>(p, '/review');
    const flagged = review.body.items.find((i) => i.chunk.chunkId === 'shipping-1')!;
    expect(flagged).toMatchObject({ guess: 'retrieval_failed', candidate: 'negative', traceIds: [t.traceId] });
    expect(flagged.chunk.text).toContain('Canada');
    expect(flagged.evidence.join(' ')).toContain('flagged as the wrong source');
    expect(flagged.evidenceCodes).toContainEqual(expect.objectContaining({ code: 'flagged_wrong_source' }));
    // Why the guess is stored as a code, answered beside the English sentence it has always been.
    expect(flagged).toMatchObject({ guessWhy: 'the user flagged this source as wrong', guessWhyCode: { code: 'flagged_this_source' } });
    const stored = await env.DB.prepare('select guess_why from review_items where project_id = ? and chunk_id = ?').bind(p.id, 'shipping-1').first();
    expect(stored).toEqual({ guess_why: '{"code":"flagged_this_source"}' });
    expect(review.body.budget).toMatchObject({ minutesPerWeek: 30, secondsPerItem: 20, itemsPerWeek: 90 });

    const chunk = await env.DB.prepare(
      'select retrieved, top_ranked, wrong_source_flags, weighted_score from chunk_stats where project_id = ? and chunk_id = ?',
    )
      .bind(p.id, 'shipping-1')
      .first();
    expect(chunk).toMatchObject({ retrieved: 1, top_ranked: 1, wrong_source_flags: 1 });
    expect(chunk!.weighted_score).toBeCloseTo(-0.8);
    const docs = await env.DB.prepare('select source_doc_id, traces, scored, negative from document_days where project_id = ? order by source_doc_id')
      .bind(p.id)
      .all();
    expect(docs.results).toEqual(['credit.md', 'refunds.md', 'shipping.md'].map((d) => ({ source_doc_id: d, traces: 1, scored: 1, negative: 1 })));
    const day = await env.DB.prepare('select traces, with_trusted, explicit_signals, negative from day_stats where project_id = ?').bind(p.id).first();
    expect(day).toEqual({ traces: 1, with_trusted: 1, explicit_signals: 2, negative: 1 });
    expect(await env.DB.prepare('select traces, negative from session_stats where project_id = ?').bind(p.id).first()).toEqual({ traces: 1, negative: 1 });

    const runs = await admin<{ runs: { night: string; status: string; stages: { name: string; ms: number; counts: Record<string, number> }[] }[] }>(p, '/runs');
    expect(runs.body.runs[0]).toMatchObject({ status: 'done' });
    expect(runs.body.runs[0]!.stages.find((s) => s.name === 'assess')!.counts).toMatchObject({ traces: 1, events: 2 });

    // The list's threshold is, unless given, the project's own line for a bad answer.
    const score = worst.body.traces[0]!.weightedScore;
    await admin(p, '/settings', { method: 'PUT', json: { badTraceScore: score - 0.01 } });
    expect((await admin<{ traces: unknown[] }>(p, '/worst-traces')).body.traces).toEqual([]);
    // Only below the line is bad, as in mining (the seed's `< -0.3`); an empty parameter is as good as none.
    expect((await admin<{ traces: unknown[] }>(p, `/worst-traces?below=${score}`)).body.traces).toEqual([]);
    expect((await admin<{ traces: unknown[] }>(p, `/worst-traces?below=${score + 0.01}&knowledgeBase=`)).body.traces).toHaveLength(1);
  });

  it('lists and mines a reranked answer by the order the model saw, not retrieval order', async () => {
    const p = await newProject();
    const reranked = [chunks[2]!, chunks[0]!, chunks[1]!].map((c, i) => ({ ...c, rank: i + 1, score: 1 - i / 10 }));
    const t = badTrace({ rerankedChunks: reranked });
    await send(p, [t], [{ traceId: t.traceId, signalType: 'thumbs_down' }]);
    await runNightly(env, tonight(), { projects: [p.id] });

    const worst = await admin<{ traces: { chunkIds: string[] }[] }>(p, '/worst-traces');
    expect(worst.body.traces[0]!.chunkIds).toEqual(['refund-1', 'shipping-1', 'credit-1']);
    const review = await admin<{ items: { chunk: { chunkId: string }; rank: number }[] }>(p, '/review');
    const mined = Object.fromEntries(review.body.items.map((i) => [i.chunk.chunkId, i.rank]));
    expect(mined).toEqual({ 'refund-1': 1, 'shipping-1': 2 });
  });

  it('counts a chunk as shown first by its trace’s last stage, from what each row stored or, for rows stored before, from the trace’s stages', async () => {
    const p = await newProject();
    const x = (rank: number) => ({ ...chunks[0]!, rank });
    const traces = [
      badTrace({ traceId: 't-1', retrievedChunks: [x(2)] }), // first, retrieval being its last stage
      badTrace({ traceId: 't-2', retrievedChunks: [x(1)], rerankedChunks: [{ ...chunks[1]!, rank: 1 }, x(4)] }), // moved down by the reranker
      badTrace({ traceId: 't-3', retrievedChunks: [x(7)], rerankedChunks: [x(1)] }), // moved up by it
      badTrace({ traceId: 't-4', retrievedChunks: [x(4)] }),
    ];
    await send(p, traces, []);
    await runNightly(env, tonight(), { projects: [p.id] });
    const stats = () => env.DB.prepare('select retrieved, top_ranked from chunk_stats where project_id = ? and chunk_id = ?').bind(p.id, x(1).chunkId).first();
    expect(await stats()).toEqual({ retrieved: 4, top_ranked: 2 });
    const { results: rows } = await env.DB.prepare(
      `select trace_id, stage, top_ranked from trace_chunks where project_id = ? and chunk_id = ? order by trace_id, stage`,
    )
      .bind(p.id, x(1).chunkId)
      .all();
    expect(rows).toEqual([
      { trace_id: 't-1', stage: 'retrieved', top_ranked: 1 },
      { trace_id: 't-2', stage: 'reranked', top_ranked: 0 },
      { trace_id: 't-2', stage: 'retrieved', top_ranked: 0 },
      { trace_id: 't-3', stage: 'reranked', top_ranked: 1 },
      { trace_id: 't-3', stage: 'retrieved', top_ranked: 0 },
      { trace_id: 't-4', stage: 'retrieved', top_ranked: 0 },
    ]);

    // Rows stored before the column (null) count the same: moved down by the reranker, first without one.
    await send(p, [badTrace({ traceId: 't-5', retrievedChunks: [x(1)], rerankedChunks: [{ ...chunks[1]!, rank: 1 }, x(4)] })], []);
    await send(p, [badTrace({ traceId: 't-6', retrievedChunks: [x(3)] })], []);
    await env.DB.prepare("update trace_chunks set top_ranked = null where project_id = ? and trace_id in ('t-5', 't-6')").bind(p.id).run();
    await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    expect(await stats()).toEqual({ retrieved: 6, top_ranked: 3 });
  });

  it('changes nothing when run again for the same night', async () => {
    const p = await newProject();
    const t = badTrace();
    await send(p, [t], [{ traceId: t.traceId, signalType: 'thumbs_down' }]);
    const now = tonight();
    await runNightly(env, now, { projects: [p.id] });
    const once = await loopState(p.id);
    expect(once.review_items!.length).toBeGreaterThan(0);
    const again = await runNightly(env, now + 60_000, { projects: [p.id] });
    expect(again.done).toBe(true);
    expect(await loopState(p.id)).toEqual(once);
  });

  it('ends a run cut after every slice where one uninterrupted run ends', async () => {
    const [whole, cut] = [await newProject(), await newProject()];
    // The same traffic in both projects: ids are per project, so the same ids can be reused.
    const traces = Array.from({ length: 7 }, (_, i) =>
      badTrace({ traceId: `t-${i}`, sessionId: `s-${i % 3}`, turnIndex: Math.floor(i / 3), query: `refund question ${i % 2}` }),
    );
    const events = traces.flatMap((t, i) => [
      { traceId: t.traceId, sessionId: t.sessionId!, signalType: i % 3 ? 'thumbs_down' : 'thumbs_up', clientTs: Date.UTC(2026, 10, 2, 10, i) },
      {
        traceId: t.traceId,
        sessionId: t.sessionId!,
        signalType: 'citation_click',
        detail: { chunkId: 'refund-1' },
        clientTs: Date.UTC(2026, 10, 2, 10, i, 30),
      },
    ]) as Parameters<typeof event>[0][];
    for (const p of [whole, cut])
      await send(
        p,
        traces,
        events.map((e, i) => ({ ...e, eventId: `e-${i}` })),
      );
    const now = tonight();
    await runNightly(env, now, { projects: [whole.id], tracesPerSlice: 2 });
    let steps = 0;
    while (!(await runNightly(env, now, { projects: [cut.id], tracesPerSlice: 2, maxSlices: 1 })).done) steps++;
    expect(steps).toBeGreaterThan(8);
    expect(await loopState(cut.id)).toEqual(await loopState(whole.id));
  });

  it("adds each answer to its chunks' counts once, when a run left unfinished is covered again by the next night's", async () => {
    const p = await newProject();
    await send(
      p,
      Array.from({ length: 25 }, (_, i) => badTrace({ traceId: `t-${String(i).padStart(2, '0')}` })),
      [],
    );
    // Tonight's run stops after adding its first slice of answers (ten: ten trace slices' worth) to their chunks, and its night passes.
    const cut = () => runNightly(env, tonight(), { projects: [p.id], tracesPerSlice: 1, maxSlices: 1 });
    let summary = await cut();
    while (summary.runs[0]!.stage !== 'retrievals' || !summary.runs[0]!.stages.some((s) => s.name === 'retrievals')) summary = await cut();
    const counts = async () =>
      (await env.DB.prepare('select chunk_id, retrieved, top_ranked from chunk_stats where project_id = ? order by chunk_id').bind(p.id).all()).results;
    const each = (n: number) => ['credit-1', 'refund-1', 'shipping-1'].map((chunk_id) => ({ chunk_id, retrieved: n, top_ranked: n }));
    expect(await counts()).toEqual(each(10));
    expect((await runNightly(env, tonight() + 86_400_000, { projects: [p.id] })).done).toBe(true);
    expect(await counts()).toEqual(each(25));
  });

  it('counts again only the chunk days a night’s events fall on, keeping the others', async () => {
    const p = await newProject();
    const click = (traceId: string) => ({ traceId, signalType: 'citation_click' as const, detail: { chunkId: 'refund-1' } });
    // Yesterday's click, then five answers nobody clicked: tonight touches few of the project's traces.
    await send(p, [badTrace({ traceId: 't-0' })], [click('t-0')]);
    await env.DB.prepare('update feedback_events set received_at = received_at - 86400000 where project_id = ?').bind(p.id).run();
    await send(
      p,
      [1, 2, 3, 4, 5].map((i) => badTrace({ traceId: `t-${i}` })),
      [],
    );
    const first = await runNightly(env, tonight(), { projects: [p.id] });
    await send(p, [badTrace({ traceId: 't-6' })], [click('t-6')]);
    const second = await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    // The days the two clicks arrived on, as stored: whatever the hour, they are a day and more apart.
    const arrivals = await env.DB.prepare('select received_at from feedback_events where project_id = ? order by received_at')
      .bind(p.id)
      .all<{ received_at: number }>();
    const [yesterday, today] = arrivals.results.map((e) => utcDay(e.received_at));
    const days = await env.DB.prepare('select chunk_id, day, clicks from chunk_signal_days where project_id = ? order by day').bind(p.id).all();
    expect(days.results).toEqual([
      { chunk_id: 'refund-1', day: yesterday, clicks: 1 },
      { chunk_id: 'refund-1', day: today, clicks: 1 },
    ]);
    const runs = await admin<{ runs: { night: string; stages: { name: string; counts: Record<string, number> }[] }[] }>(p, '/runs');
    const counted = (night: string) => runs.body.runs.find((r) => r.night === night)!.stages.find((s) => s.name === 'chunks')!.counts.chunkDays;
    expect([counted(first.night), counted(second.night)]).toEqual([1, 1]);
    expect(await env.DB.prepare("select clicks from chunk_stats where project_id = ? and chunk_id = 'refund-1'").bind(p.id).first()).toEqual({ clicks: 2 });
  });

  it("counts a chunk's trusted clicks, its focused reads from 15 s of dwell on (not a glance), and every dwell's time", async () => {
    const p = await newProject();
    const at = Date.now() - 30_000;
    const dwell = (ms: number) => ({ traceId: 't-1', signalType: 'citation_dwell' as const, detail: { chunkId: 'refund-1', ms, mode: 'preview' as const } });
    // Clicked twice within a second: the second is a double submit, not trusted.
    const click = (clientTs: number) => ({ traceId: 't-1', signalType: 'citation_click' as const, detail: { chunkId: 'refund-1' }, clientTs });
    await send(
      p,
      [badTrace({ traceId: 't-1' })],
      [click(at), click(at + 1_000), { ...dwell(15_000), clientTs: at + 20_000 }, { ...dwell(14_999), clientTs: at + 25_000 }],
    );
    await runNightly(env, tonight(), { projects: [p.id] });
    const stats = await env.DB.prepare("select clicks, focused_dwells, dwell_ms from chunk_stats where project_id = ? and chunk_id = 'refund-1'")
      .bind(p.id)
      .first();
    expect(stats).toEqual({ clicks: 1, focused_dwells: 1, dwell_ms: 29_999 });
  });

  it('counts every chunk day again when the project has none kept yet, as on its first run after they were introduced, even if that run is left unfinished', async () => {
    const p = await newProject();
    const click = (traceId: string, chunkId: string) => ({ traceId, signalType: 'citation_click' as const, detail: { chunkId } });
    await send(
      p,
      [1, 2, 3, 4, 5].map((i) => badTrace({ traceId: `t-${i}` })),
      [click('t-1', 'refund-1'), click('t-2', 'shipping-1')],
    );
    await runNightly(env, tonight(), { projects: [p.id] });
    const clicks = async () =>
      (await env.DB.prepare('select chunk_id, clicks from chunk_stats where project_id = ? order by chunk_id').bind(p.id).all()).results;
    const counts = [
      { chunk_id: 'credit-1', clicks: 1 },
      { chunk_id: 'refund-1', clicks: 1 },
      { chunk_id: 'shipping-1', clicks: 1 },
    ];
    // As a migration leaves a project: counts, but no chunk days. The next night's one event names another chunk;
    // its run stops after counting the first of the chunk days it listed, and its night passes.
    await env.DB.prepare('delete from chunk_signal_days where project_id = ?').bind(p.id).run();
    await env.DB.prepare('update chunk_stats set clicks = 0 where project_id = ?').bind(p.id).run();
    await send(p, [badTrace({ traceId: 't-6' })], [click('t-6', 'credit-1')]);
    const cut = () => runNightly(env, tonight() + 86_400_000, { projects: [p.id], tracesPerSlice: 1, maxSlices: 1 });
    let summary = await cut();
    while (summary.runs[0]!.stage !== 'chunks' || !summary.runs[0]!.stages.some((s) => s.name === 'chunks')) summary = await cut();
    expect(await clicks()).not.toEqual(counts);
    expect((await runNightly(env, tonight() + 2 * 86_400_000, { projects: [p.id] })).done).toBe(true);
    expect(await clicks()).toEqual(counts);
  });

  it('covers again the window of a run its night left unfinished', async () => {
    const p = await newProject();
    const traces = Array.from({ length: 5 }, (_, i) => badTrace({ traceId: `t-${i}`, sessionId: `s-${i}` }));
    await send(
      p,
      traces,
      traces.map((t) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: 'thumbs_down' as const })),
    );
    // Tonight's run assesses two traces of five, and its night passes.
    const cut = await runNightly(env, tonight(), { projects: [p.id], tracesPerSlice: 2, maxSlices: 4 });
    expect(cut.runs[0]!.stage).toBe('assess');
    const scored = async () => (await env.DB.prepare('select count(*) as n from trace_stats where project_id = ?').bind(p.id).first<{ n: number }>())!.n;
    expect(await scored()).toBe(2);
    expect((await runNightly(env, tonight() + 86_400_000, { projects: [p.id] })).done).toBe(true);
    expect(await scored()).toBe(5);
  });

  it('assesses an event stamped inside a run’s window but stored after the run had read it', async () => {
    const p = await newProject();
    const t = badTrace();
    await send(p, [t], []);
    await runNightly(env, tonight(), { projects: [p.id] });
    const { windowTo } = (await env.DB.prepare('select window_to as windowTo from loop_runs where project_id = ?').bind(p.id).first<{ windowTo: number }>())!;
    // The request stamped the vote a moment before the run's window ended; its write landed after the run had read it.
    await send(p, [], [{ traceId: t.traceId, signalType: 'thumbs_down' }]);
    await env.DB.prepare('update feedback_events set received_at = ? where project_id = ?')
      .bind(windowTo - 500, p.id)
      .run();
    const summary = await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    expect(summary.runs[0]!.stages.find((s) => s.name === 'prepare')!.counts).toMatchObject({ touchedByEvents: 0, lateWrites: 1 });
    const stats = await env.DB.prepare('select live_signals, explicit_signals from trace_stats where project_id = ? and trace_id = ?')
      .bind(p.id, t.traceId)
      .first();
    expect(stats).toEqual({ live_signals: 1, explicit_signals: 1 });
  });

  it('finds a late write that took the rowid of an erased newer event', async () => {
    const p = await newProject();
    const t = badTrace();
    const gone = badTrace({ userIdHash: 'u-gone', sessionId: 's-gone' });
    await send(p, [t, gone], [{ traceId: gone.traceId, sessionId: 's-gone', signalType: 'thumbs_down' }]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const { windowTo } = (await env.DB.prepare('select window_to as windowTo from loop_runs where project_id = ?').bind(p.id).first<{ windowTo: number }>())!;
    // The newest event goes, and the late vote is stored in its place.
    expect((await admin(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    await send(p, [], [{ traceId: t.traceId, signalType: 'thumbs_down' }]);
    await env.DB.prepare('update feedback_events set received_at = ? where project_id = ?')
      .bind(windowTo - 500, p.id)
      .run();
    const summary = await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    expect(summary.runs[0]!.stages.find((s) => s.name === 'prepare')!.counts).toMatchObject({ lateWrites: 1 });
    expect(await statsOf(p.id, t.traceId)).toMatchObject({ live_signals: 1 });
  });

  it('recomputes the items a run its night left unfinished took rows from', async () => {
    const p = await newProject();
    const traces = Array.from({ length: 3 }, (_, i) => badTrace({ traceId: `t-${i}`, sessionId: `s-${i}` }));
    await send(
      p,
      traces,
      traces.map((t) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: 'thumbs_down' as const, clientTs: Date.UTC(2026, 10, 2, 10) })),
    );
    expect((await runNightly(env, tonight(), { projects: [p.id] })).done).toBe(true);
    const counts = async () =>
      (await env.DB.prepare('select trace_count as n from review_items where project_id = ?').bind(p.id).all<{ n: number }>()).results.map((r) => r.n);
    expect(new Set(await counts())).toEqual(new Set([3]));
    // The reader changes their mind: that answer no longer raises the items.
    await send(p, [], [{ traceId: 't-0', sessionId: 's-0', signalType: 'thumbs_up', clientTs: Date.UTC(2026, 10, 2, 11) }]);
    // The next night's run takes its rows back, and its night passes before it recomputes the items.
    const second = tonight() + 86_400_000;
    for (let i = 0; ; i++) {
      expect(i).toBeLessThan(40);
      await runNightly(env, second, { projects: [p.id], maxSlices: 1 });
      const run = await env.DB.prepare('select cursor from loop_runs where project_id = ? and night = ?')
        .bind(p.id, utcDay(second))
        .first<{ cursor: string | null }>();
      if (run?.cursor?.startsWith('i:')) break;
    }
    expect((await runNightly(env, second + 86_400_000, { projects: [p.id] })).done).toBe(true);
    expect(new Set(await counts())).toEqual(new Set([2]));
  });

  it('mines question by question, each slice writing items up to its place in the order of item ids, and ends a cut run where an uncut one ends', async () => {
    const [whole, cut] = [await newProject(), await newProject()];
    // Five questions, three answers each: slices of two traces stop inside questions.
    const traces = Array.from({ length: 15 }, (_, i) => badTrace({ traceId: `t-${i}`, sessionId: `s-${i}`, query: `refund question number ${i % 5}` }));
    for (const p of [whole, cut])
      await send(
        p,
        traces,
        traces.map((t) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: 'thumbs_down' as const })),
      );
    const now = tonight();
    await runNightly(env, now, { projects: [whole.id], tracesPerSlice: 2 });
    const mine = STAGES.findIndex((s) => s.name === 'mine');
    const places: string[] = [];
    for (;;) {
      const summary = await runNightly(env, now, { projects: [cut.id], tracesPerSlice: 2, maxSlices: 1 });
      const run = await env.DB.prepare('select stage, cursor from loop_runs where project_id = ?')
        .bind(cut.id)
        .first<{ stage: number; cursor: string | null }>();
      if (run!.stage === mine && run!.cursor?.startsWith('j:') && run!.cursor.length > 2) {
        // The question the slice stopped in: every item written so far belongs to it or to one before it.
        const place = run!.cursor.slice(2, 18);
        const { results } = await env.DB.prepare('select item_id from review_items where project_id = ?').bind(cut.id).all<{ item_id: string }>();
        expect(results.length).toBeGreaterThan(0);
        for (const { item_id } of results) expect(item_id.slice(0, 16) <= place).toBe(true);
        places.push(place);
      }
      if (summary.done) break;
    }
    expect(places.length).toBeGreaterThanOrEqual(6);
    expect(new Set(places).size).toBe(5);
    expect(places).toEqual([...places].sort());
    expect(await loopState(cut.id)).toEqual(await loopState(whole.id));
  });

  it('keeps a flooding session and a reversed thumbs-down out of mining, with the rule and its reason stored', async () => {
    const p = await newProject();
    const flood = Array.from({ length: 12 }, () => badTrace({ sessionId: 'flooder' }));
    const reversed = badTrace({ sessionId: 'reader' });
    const base = Date.UTC(2026, 10, 3, 9);
    await send(
      p,
      [...flood, reversed],
      [
        ...flood.map((t, i) => ({ traceId: t.traceId, sessionId: 'flooder', signalType: 'thumbs_down' as const, clientTs: base + i * 2_000 })),
        { traceId: reversed.traceId, sessionId: 'reader', signalType: 'thumbs_down', clientTs: base + 60_000 },
        { traceId: reversed.traceId, sessionId: 'reader', signalType: 'copy_answer', detail: { chars: 250 }, clientTs: base + 70_000 },
      ],
    );
    await runNightly(env, tonight(), { projects: [p.id] });
    const { results } = await env.DB.prepare(
      `select e.session_id, a.confidence, a.rules from event_assessments a join feedback_events e using (project_id, event_id) where a.project_id = ? and e.signal_type = 'thumbs_down'`,
    )
      .bind(p.id)
      .all<{ session_id: string; confidence: number; rules: string }>();
    expect(results).toHaveLength(13);
    for (const r of results) {
      expect(r.confidence).toBeLessThan(0.3);
      expect(JSON.parse(r.rules)[0].rule).toBe(r.session_id === 'flooder' ? 'flooding' : 'reversed_by_behaviour');
    }
    const review = await admin<{ items: unknown[]; budget: { held: number } }>(p, '/review');
    expect(review.body.items).toEqual([]);
    expect(review.body.budget.held).toBe(0);
    // The run kept the flooding source only while it needed it.
    const run = await env.DB.prepare('select state from loop_runs where project_id = ?').bind(p.id).first<{ state: string }>();
    expect(run!.state).not.toContain('flooder');
  });

  it('distrusts a vote faster than reading, as the widget measured it, and one address flooding from many sessions', async () => {
    const p = await newProject();
    const fast = badTrace();
    await send(p, [fast], [{ traceId: fast.traceId, sessionId: 'quick', signalType: 'thumbs_up', shownMs: 250 }]);
    const flood = Array.from({ length: 12 }, () => badTrace());
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: flood })).status).toBe(200);
    // A different session for every vote, all from one address: only the address gives it away.
    const votes = flood.map((t, i) =>
      event({ traceId: t.traceId, sessionId: `rotating-${i}`, signalType: 'thumbs_down', clientTs: Date.UTC(2026, 10, 5, 9, 0, i) }),
    );
    const res = await call('/v1/events', {
      method: 'POST',
      headers: { ...bearer(p.keys.write), origin: ORIGIN, 'cf-connecting-ip': '203.0.113.9' },
      json: { events: votes },
    });
    expect(res.status).toBe(200);
    await runNightly(env, tonight(), { projects: [p.id] });
    const { results } = await env.DB.prepare(
      `select e.session_id, a.rules from event_assessments a join feedback_events e using (project_id, event_id) where a.project_id = ?`,
    )
      .bind(p.id)
      .all<{ session_id: string; rules: string }>();
    const rulesOf = (session: string) =>
      (JSON.parse(results.find((r) => r.session_id === session)!.rules) as { rule: string; reason: string }[]).map((r) => r.rule);
    expect(rulesOf('quick')).toEqual(['too_fast']);
    for (let i = 0; i < 12; i++) expect(rulesOf(`rotating-${i}`)).toEqual(['flooding']);
    expect(JSON.parse(results.find((r) => r.session_id === 'rotating-0')!.rules)[0].reason).toMatch(/^ip said 12 answers failed/);
  });

  it('does not count a bounce from an answer its conversation went on from: the page was left after the next question', async () => {
    const p = await newProject();
    const t0 = Date.now() - 600_000;
    // A question, a follow-up 8 s later, then the page left: both answers report a bounce.
    const first = badTrace({ sessionId: 'asked-on', turnIndex: 0, createdAt: t0 });
    const next = badTrace({ sessionId: 'asked-on', turnIndex: 1, createdAt: t0 + 8_000, query: 'and for opened items bought in a sale?' });
    const bounce = (t: TraceInput) => ({
      traceId: t.traceId,
      sessionId: 'asked-on',
      signalType: 'bounce' as const,
      clientTs: t0 + 9_000,
      detail: { ms: 9_000 },
    });
    await send(p, [first, next], [bounce(first), bounce(next)]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const stats = (t: TraceInput) =>
      env.DB.prepare('select weighted_score, trusted_signals from trace_stats where project_id = ? and trace_id = ?').bind(p.id, t.traceId).first();
    expect(await stats(first)).toEqual({ weighted_score: null, trusted_signals: 0 });
    expect(await stats(next)).toEqual({ weighted_score: -0.3, trusted_signals: 1 });
    const verdict = await env.DB.prepare(
      `select a.confidence, a.rules from event_assessments a join feedback_events e using (project_id, event_id) where a.project_id = ? and e.trace_id = ?`,
    )
      .bind(p.id, first.traceId)
      .first<{ confidence: number; rules: string }>();
    expect(verdict!.confidence).toBe(0);
    expect(JSON.parse(verdict!.rules)).toEqual([{ rule: 'asked_on', reason: 'the conversation went on with another question after this answer' }]);
  });

  it('trusts a thumbs-down a little less when the next question digs into the same answer, unless it pushes back', async () => {
    const p = await newProject();
    const t0 = Date.now() - 600_000;
    // In each session: an answer voted down 30 s after it was shown, then 60 s later a question about it.
    const conversation = (sessionId: string, followUp: string) => {
      const answered = badTrace({
        sessionId,
        turnIndex: 0,
        createdAt: t0,
        query: 'Can opened items be returned?',
        answer: 'Opened items can be returned within 14 days of delivery [3].',
      });
      const next = badTrace({ sessionId, turnIndex: 1, createdAt: t0 + 90_000, query: followUp, answer: 'The 14 days count from delivery [3].' });
      return { traces: [answered, next], vote: { traceId: answered.traceId, sessionId, signalType: 'thumbs_down' as const, clientTs: t0 + 30_000 } };
    };
    const digs = conversation('digs', 'Do the 14 days count from delivery or from the order?');
    const objects = conversation('objects', "That's wrong. Do the 14 days count from delivery or from the order?");
    await send(p, [...digs.traces, ...objects.traces], [digs.vote, objects.vote]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const verdictOf = (sessionId: string) =>
      env.DB.prepare(
        `select a.confidence, a.rules from event_assessments a join feedback_events e using (project_id, event_id)
         where a.project_id = ? and e.session_id = ? and e.signal_type = 'thumbs_down'`,
      )
        .bind(p.id, sessionId)
        .first<{ confidence: number; rules: string }>();
    const dug = await verdictOf('digs');
    expect(JSON.parse(dug!.rules)).toEqual([
      { rule: 'dug_into_after', reason: expect.stringMatching(/^the next question, 60 s later, digs into this answer/) },
    ]);
    expect(dug!.confidence).toBe(0.72);
    // A mild doubt: the vote is still trusted, and its answer still among the worst.
    const worst = await admin<{ traces: { traceId: string }[] }>(p, '/worst-traces');
    expect(worst.body.traces.map((x) => x.traceId)).toContain(digs.vote.traceId);
    // Saying the answer was wrong while asking about it confirms the vote: no verdict but the plain one.
    expect(await verdictOf('objects')).toBeNull();
  });

  it('attributes a late correction to the earlier turn it is about, and stores why', async () => {
    const p = await newProject();
    const t0 = Date.UTC(2026, 10, 4, 9);
    const turns = [
      trace({
        sessionId: 'conv',
        turnIndex: 0,
        createdAt: t0,
        query: 'What are the refund conditions?',
        answer: 'Unopened items can be refunded within 30 days with a receipt.',
      }),
      trace({
        sessionId: 'conv',
        turnIndex: 1,
        createdAt: t0 + 60_000,
        query: 'And if the item was opened?',
        answer: 'Opened items are refunded as store credit.',
      }),
      trace({
        sessionId: 'conv',
        turnIndex: 2,
        createdAt: t0 + 120_000,
        query: 'Do you ship to Canada?',
        answer: 'Yes, shipping to Canada takes 5 to 8 days.',
      }),
    ];
    await send(p, turns, [
      {
        traceId: turns[2]!.traceId,
        sessionId: 'conv',
        signalType: 'correction',
        detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
        clientTs: t0 + 150_000,
      },
    ]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const row = await env.DB.prepare('select trace_id, attributed_trace_id, attribution from event_assessments where project_id = ?')
      .bind(p.id)
      .first<{ trace_id: string; attributed_trace_id: string; attribution: string }>();
    expect(row).toMatchObject({ trace_id: turns[2]!.traceId, attributed_trace_id: turns[1]!.traceId });
    expect(JSON.parse(row!.attribution).reason).toContain('points back');
    const stats = await env.DB.prepare('select trace_id, weighted_score from trace_stats where project_id = ? and weighted_score is not null')
      .bind(p.id)
      .all<{ trace_id: string }>();
    expect(stats.results.map((r) => r.trace_id)).toEqual([turns[1]!.traceId]);
  });

  it("counts a support ticket a backend sends days later on the answer it names, never weighing the conversation's other turns", async () => {
    const p = await newProject();
    const t0 = Date.UTC(2026, 10, 4, 9);
    const turns = [
      trace({ sessionId: 'desk', turnIndex: 0, createdAt: t0, query: 'What are the refund conditions?', answer: 'Refunds within 30 days.' }),
      trace({ sessionId: 'desk', turnIndex: 1, createdAt: t0 + 60_000, query: 'And for opened items?', answer: 'Opened items get store credit.' }),
    ];
    await send(p, turns, [{ traceId: turns[1]!.traceId, sessionId: 'desk', signalType: 'thumbs_down', clientTs: t0 + 90_000 }]);
    // Three days on, the helpdesk's ticket quotes the second answer; the backend sends it with its key.
    const ticket = event({
      traceId: turns[1]!.traceId,
      sessionId: 'desk',
      signalType: 'support_ticket',
      detail: { ticketId: 'HD-4821' },
      clientTs: t0 + 3 * 86_400_000,
    });
    expect((await call('/v1/events', { method: 'POST', headers: bearer(p.keys.server), json: { events: [ticket] } })).status).toBe(200);
    await runNightly(env, tonight() + 3 * 86_400_000, { projects: [p.id] });
    expect(await statsOf(p.id, turns[1]!.traceId)).toMatchObject({ live_signals: 2, trusted_signals: 2 });
    const verdicts = await env.DB.prepare(
      'select e.signal_type, a.attribution from feedback_events e left join event_assessments a using (project_id, event_id) where e.project_id = ? order by e.signal_type',
    )
      .bind(p.id)
      .all<{ signal_type: string; attribution: string | null }>();
    // The thumbs-down was weighed against the turn before it (and stayed); the ticket names its answer.
    expect(verdicts.results.map((r) => [r.signal_type, r.attribution !== null])).toEqual([
      ['support_ticket', false],
      ['thumbs_down', true],
    ]);
  });

  it('mines an earlier turn that a later night attributes a correction to', async () => {
    const p = await newProject();
    const [first, second] = earlierTurnAndFollowUp();
    await send(p, [first, second], []);
    await runNightly(env, tonight(), { projects: [p.id] });
    // The next night a correction on the follow-up turns out to be about the first answer.
    await send(p, [], [correctionOn(second)]);
    await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    expect(await statsOf(p.id, first.traceId)).toMatchObject({ trusted_signals: 1 });
    const mined = await env.DB.prepare('select count(*) as n from review_item_traces where project_id = ? and trace_id = ?')
      .bind(p.id, first.traceId)
      .first<{ n: number }>();
    expect(mined!.n).toBeGreaterThan(0);
  });

  it('routes a correction the attribution moved to an earlier turn by the documents that turn cited', async () => {
    const p = await newProject();
    const [first, second] = earlierTurnAndFollowUp();
    const cited = (t: TraceInput, i: number) => ({ ...t, retrievedChunks: [{ ...chunks[i]!, rank: 1 }] });
    await send(p, [cited(first, 1), cited(second, 0)], [correctionOn(second)]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const inbox = await admin<{ owners: { corrections: { sourceDocId: string }[] }[] }>(p, '/corrections');
    expect(inbox.body.owners.flatMap((o) => o.corrections.map((c) => c.sourceDocId))).toEqual(['credit.md']);
  });

  it('routes a correction again when a later night moves it to the earlier turn it is about', async () => {
    const p = await newProject();
    const [first, second] = earlierTurnAndFollowUp();
    const cited = (t: TraceInput, i: number) => ({ ...t, retrievedChunks: [{ ...chunks[i]!, rank: 1 }] });
    const routed = async () =>
      (await admin<{ owners: { corrections: { sourceDocId: string }[] }[] }>(p, '/corrections')).body.owners.flatMap((o) =>
        o.corrections.map((c) => c.sourceDocId),
      );
    // The first turn's trace is logged late: tonight the correction has no earlier turn to go to.
    await send(p, [cited(second, 0)], [correctionOn(second)]);
    await runNightly(env, tonight(), { projects: [p.id] });
    expect(await routed()).toEqual(['shipping.md']);
    await send(p, [cited(first, 1)], [{ traceId: second.traceId, sessionId: 'shared', signalType: 'citation_click', detail: { chunkId: 'shipping-1' } }]);
    await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    expect(await routed()).toEqual(['credit.md']);
  });

  it('takes a correction distrusted since back from the earlier turn it counted for, and out of the inbox', async () => {
    const p = await newProject();
    const [first, second] = earlierTurnAndFollowUp();
    await send(p, [first, second], [correctionOn(second)]);
    await runNightly(env, tonight(), { projects: [p.id] });
    expect(await statsOf(p.id, first.traceId)).toMatchObject({ live_signals: 1, trusted_signals: 1 });
    const inbox = async () =>
      (await admin<{ owners: { corrections: unknown[] }[] }>(p, '/corrections?status=open')).body.owners.flatMap((o) => o.corrections).length;
    expect(await inbox()).toBe(1);
    // The next night the same user floods thumbs-downs: the correction is distrusted, so no longer moved.
    const floods = Array.from({ length: 12 }, (_, i) => badTrace({ userIdHash: 'u1', sessionId: `flood-${i}` }));
    await send(
      p,
      floods,
      floods.map((f, i) => ({ traceId: f.traceId, sessionId: f.sessionId!, signalType: 'thumbs_down' as const, clientTs: Date.now() + i * 1_000 })),
    );
    // A new event on the follow-up has it judged again.
    await send(p, [], [{ traceId: second.traceId, sessionId: 'shared', signalType: 'citation_click', detail: { chunkId: 'refund-1' } }]);
    await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    const verdict = await env.DB.prepare('select attributed_trace_id, confidence from event_assessments where project_id = ? and trace_id = ?')
      .bind(p.id, second.traceId)
      .first<{ attributed_trace_id: string; confidence: number }>();
    expect(verdict).toMatchObject({ attributed_trace_id: second.traceId });
    expect(verdict!.confidence).toBeLessThan(LOW_CONFIDENCE);
    expect(await statsOf(p.id, first.traceId)).toMatchObject({ live_signals: 0, trusted_signals: 0 });
    expect(await inbox()).toBe(0);
  });

  it('takes an earlier turn out of the review queue when the run that moved a correction off it is left unfinished after assessing', async () => {
    const p = await newProject();
    const [first, second] = earlierTurnAndFollowUp();
    await send(p, [first, second], [correctionOn(second)]);
    const now = tonight();
    await runNightly(env, now, { projects: [p.id] });
    const mined = () => reviewRowsOf(p.id, first.traceId);
    expect(await mined()).toBeGreaterThan(0);
    // The next day the same user floods, and a new event on the follow-up has its correction judged again: distrusted, not moved.
    const floods = Array.from({ length: 12 }, (_, i) => badTrace({ userIdHash: 'u1', sessionId: `flood-${i}` }));
    await send(
      p,
      floods,
      floods.map((f, i) => ({ traceId: f.traceId, sessionId: f.sessionId!, signalType: 'thumbs_down' as const, clientTs: Date.now() + i * 1_000 })),
    );
    await send(p, [], [{ traceId: second.traceId, sessionId: 'shared', signalType: 'citation_click', detail: { chunkId: 'refund-1' } }]);
    // That night's run stops once it has assessed (the first turn rescored), and its night passes.
    while ((await runNightly(env, now + 86_400_000, { projects: [p.id], maxSlices: 1 })).runs[0]!.stage !== 'mine');
    expect(await statsOf(p.id, first.traceId)).toMatchObject({ trusted_signals: 0 });
    // The next night covers its window again, and mines the first turn again too: nothing of it stays in the queue.
    expect((await runNightly(env, now + 2 * 86_400_000, { projects: [p.id] })).done).toBe(true);
    expect(await mined()).toBe(0);
  });

  it('sizes the queue to the weekly budget and records why the threshold moved', async () => {
    const p = await newProject();
    expect((await admin(p, '/settings', { method: 'PUT', json: { reviewMinutesPerWeek: 1, secondsPerReviewItem: 20 } })).status).toBe(200);
    // Question i is asked i + 1 times: reach sets the items' expected values apart.
    const traces = [0, 1, 2, 3].flatMap((i) => Array.from({ length: i + 1 }, () => badTrace({ query: `question number ${i} about refunds` })));
    // One reader per answer: one session thumbs-downing ten answers in seconds would be flooding.
    await send(
      p,
      traces,
      traces.map((t, i) => ({ traceId: t.traceId, sessionId: `reader-${i}`, signalType: 'thumbs_down' as const })),
    );
    await runNightly(env, tonight(), { projects: [p.id] });
    const review = await admin<{
      items: { expectedValue: number }[];
      budget: { pending: number; held: number; itemsPerWeek: number; miningThreshold: number };
    }>(p, '/review');
    expect(review.body.budget).toMatchObject({ itemsPerWeek: 3, pending: 3, held: 5 });
    expect(review.body.items).toHaveLength(3);
    const values = review.body.items.map((i) => i.expectedValue);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    // The list pages on by offset: the held ones two by two make the whole held list, in order.
    const held = async (offset: number) => (await admin<{ items: { id: string }[] }>(p, `/review?status=held&limit=2&offset=${offset}`)).body.items;
    const all = (await admin<{ items: { id: string }[] }>(p, '/review?status=held&limit=10')).body.items;
    expect([...(await held(0)), ...(await held(2)), ...(await held(4))].map((i) => i.id)).toEqual(all.map((i) => i.id));
    expect(all).toHaveLength(5);
    const { results } = await env.DB.prepare('select from_value, to_value, reason from mining_thresholds where project_id = ?')
      .bind(p.id)
      .all<{ reason: string; to_value: number }>();
    expect(results).toHaveLength(1);
    expect(results[0]!.reason).toContain('8 items wait and the weekly budget clears 3');
    expect(review.body.budget.miningThreshold).toBe(results[0]!.to_value);
    const runs = await admin<{ runs: { stages: { name: string; note?: string }[] }[] }>(p, '/runs');
    expect(runs.body.runs[0]!.stages.find((s) => s.name === 'queue')!.note).toContain('8 items wait and the weekly budget clears 3');
  });

  it('records a reviewer answer, takes it back, and counts confirmed examples towards training, those on held-out questions apart', async () => {
    const p = await newProject();
    const trainingQuery = questionWhere(false);
    const heldOutQuery = questionWhere(true);
    const t = badTrace({ query: trainingQuery });
    const h = badTrace({ query: heldOutQuery });
    const flag = (x: TraceInput) => ({ traceId: x.traceId, signalType: 'wrong_source' as const, detail: { chunkId: 'credit-1' } });
    await send(p, [t, h], [flag(t), flag(h)]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const { body } = await admin<{ items: { id: string; query: string; heldOut: boolean }[] }>(p, '/review');
    const item = body.items.find((i) => i.query === trainingQuery)!;
    const heldOut = body.items.find((i) => i.query === heldOutQuery)!;
    expect([item.heldOut, heldOut.heldOut]).toEqual([false, true]);
    const answered = await admin<{ status: string; verdict: string; note: string }>(p, `/review/${item.id}`, {
      method: 'POST',
      json: { verdict: 'not_relevant', note: 'about credit, call me at 555-123-4567' },
    });
    expect(answered.body).toMatchObject({ status: 'answered', verdict: 'not_relevant' });
    expect(answered.body.note).not.toContain('555');
    // One item by its id, whatever its status: what a link to it opens; another project has none.
    expect((await admin(p, `/review/${item.id}`)).body).toEqual(answered.body);
    expect((await admin(await newProject(), `/review/${item.id}`)).status).toBe(404);
    await admin(p, `/review/${heldOut.id}`, { method: 'POST', json: { verdict: 'not_relevant' } });
    const training = async () =>
      (await admin<{ training: { confirmed: number; examples: number; trainedOn: number; minimum: number; ready: boolean } }>(p, '/review')).body.training;
    // Both are confirmed; only the one on a training question is an example retraining would count.
    expect(await training()).toEqual({ confirmed: 2, examples: 1, trainedOn: 0, minimum: 30, ready: false });
    await admin(p, '/settings', { method: 'PUT', json: { trainingMinConfirmed: 1 } });
    expect(await training()).toMatchObject({ examples: 1, ready: true });
    expect((await admin(p, `/review/${item.id}`, { method: 'POST', json: { verdict: null } })).body).toMatchObject({ status: 'pending', verdict: null });
    expect(await training()).toEqual({ confirmed: 1, examples: 0, trainedOn: 0, minimum: 1, ready: false });
  });

  it('puts no chunk of a curated question to reviewers unless the question is held out, whose answers label the eval sets', async () => {
    const p = await newProject();
    const [curated, training] = questionsWhere(false, 2) as [string, string];
    const heldOut = questionWhere(true);
    expect((await curate(p, 'curated', curated)).status).toBe(200);
    expect((await curate(p, 'held-out', heldOut)).status).toBe(200);
    const traces = [curated, training, heldOut].map((query) => badTrace({ query }));
    await send(
      p,
      traces,
      traces.map((x) => ({ traceId: x.traceId, signalType: 'wrong_source' as const, detail: { chunkId: 'credit-1' } })),
    );
    await runNightly(env, tonight(), { projects: [p.id] });
    const { body } = await admin<{ items: { query: string; heldOut: boolean; curated: boolean }[] }>(p, '/review');
    // Each question's bad answer raises its top two chunks; the curated question's trains nothing and labels nothing.
    const items = body.items.map((i) => [i.query, i.heldOut, i.curated]);
    expect(items.filter(([query]) => query !== heldOut)).toEqual([
      [training, false, false],
      [training, false, false],
    ]);
    expect(items.filter(([query]) => query === heldOut)).toEqual([
      [heldOut, true, true],
      [heldOut, true, true],
    ]);
  });

  it('raises no item on a question that joined the curated suite while the night mined it, before its items were written', async () => {
    const p = await newProject();
    const [curated, training] = questionsWhere(false, 2) as [string, string];
    const traces = [curated, training].map((query) => badTrace({ query }));
    await send(
      p,
      traces,
      traces.map((x) => ({ traceId: x.traceId, signalType: 'wrong_source' as const, detail: { chunkId: 'credit-1' } })),
    );
    // The question joins the suite after the slice read the suite, just before it writes what it mined.
    let joined = false;
    const db = hookedD1(env.DB, async ({ sql, batch }, run) => {
      if (batch && !joined && sql.some((s) => /insert into review_item_traces/.test(s))) {
        joined = true;
        expect((await curate(p, 'curated', curated)).status).toBe(200);
      }
      return run();
    });
    await runNightly({ ...env, DB: db }, tonight(), { projects: [p.id] });
    expect(joined).toBe(true);
    const { body } = await admin<{ items: { query: string }[] }>(p, '/review?status=held');
    const pending = (await admin<{ items: { query: string }[] }>(p, '/review')).body;
    expect([...body.items, ...pending.items].map((i) => i.query)).toEqual([training, training]);
  });

  it('marks an item on a question that joined the curated suite after it was answered: its answer trains nothing', async () => {
    const p = await newProject();
    const t = badTrace({ query: questionWhere(false) });
    await send(p, [t], [{ traceId: t.traceId, signalType: 'wrong_source', detail: { chunkId: 'credit-1' } }]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const id = (await admin<{ items: { id: string; query: string }[] }>(p, '/review')).body.items.find((i) => i.query === t.query)!.id;
    await admin(p, `/review/${id}`, { method: 'POST', json: { verdict: 'not_relevant' } });
    const answered = async () =>
      (await admin<{ items: { id: string; curated: boolean }[]; training: { confirmed: number; examples: number } }>(p, '/review?status=answered')).body;
    expect(await answered()).toMatchObject({ items: [{ id, curated: false }], training: { confirmed: 1, examples: 1 } });
    await curate(p, 'refunds', t.query);
    // The console counts training examples from this flag as the reviewer changes answers, as the server does.
    expect(await answered()).toMatchObject({ items: [{ id, curated: true }], training: { confirmed: 1, examples: 0 } });
    expect((await admin(p, `/review/${id}`)).body).toMatchObject({ curated: true, heldOut: false });
  });

  it("holds the waiting items of a question that joined the curated suite, out of the week's budget, until it leaves the suite", async () => {
    const p = await newProject();
    const t = badTrace({ query: questionWhere(false) });
    await send(p, [t], [{ traceId: t.traceId, signalType: 'wrong_source', detail: { chunkId: 'credit-1' } }]);
    const night = tonight();
    await runNightly(env, night, { projects: [p.id] });
    const listed = async (status: string) =>
      (await admin<{ items: { curated: boolean; heldFor: string | null }[]; budget: { pending: number; held: number } }>(p, `/review?status=${status}`)).body;
    expect((await listed('pending')).items).toEqual([
      expect.objectContaining({ curated: false, heldFor: null }),
      expect.objectContaining({ curated: false, heldFor: null }),
    ]);
    await curate(p, 'refunds', t.query);
    await runNightly(env, night + 86_400_000, { projects: [p.id] });
    // Each says why it is held, and the counts by reason say it too.
    expect(await listed('pending')).toMatchObject({ items: [], budget: { pending: 0, held: 2, heldFor: { threshold: 0, budget: 0, curated: 2 } } });
    expect((await listed('held')).items).toEqual([
      expect.objectContaining({ curated: true, heldFor: 'curated' }),
      expect.objectContaining({ curated: true, heldFor: 'curated' }),
    ]);
    await admin(p, '/eval-suite/refunds', { method: 'DELETE' });
    await runNightly(env, night + 2 * 86_400_000, { projects: [p.id] });
    expect(await listed('pending')).toMatchObject({ items: [{ curated: false }, { curated: false }], budget: { pending: 2, held: 0 } });
  });

  it('says why an item past the weekly budget is held, apart from those below the mining threshold, and counts them by it', async () => {
    const p = await newProject();
    // One item a week.
    expect((await admin(p, '/settings', { method: 'PUT', json: { reviewMinutesPerWeek: 1, secondsPerReviewItem: 60 } })).status).toBe(200);
    // Two questions' bad answers: each raises its top two chunks, the top ones worth the same.
    const traces = (questionsWhere(false, 2) as [string, string]).map((query) => badTrace({ query }));
    await send(
      p,
      traces,
      traces.map((t) => ({ traceId: t.traceId, signalType: 'wrong_source', detail: { chunkId: 'credit-1' } })),
    );
    await runNightly(env, tonight(), { projects: [p.id] });
    type Listed = { items: { expectedValue: number; heldFor: string | null }[]; budget: { held: number; heldFor: object; miningThreshold: number } };
    const pending = (await admin<Listed>(p, '/review')).body;
    const held = (await admin<Listed>(p, '/review?status=held')).body;
    // The threshold rose to the one item the week clears: the other top chunk is worth as much, and waits past the budget.
    expect(pending.items).toEqual([expect.objectContaining({ heldFor: null, expectedValue: pending.budget.miningThreshold })]);
    expect(held.items.map((i) => [i.expectedValue < held.budget.miningThreshold, i.heldFor])).toEqual([
      [false, 'budget'],
      [true, 'threshold'],
      [true, 'threshold'],
    ]);
    expect(held.budget).toMatchObject({ held: 3, heldFor: { threshold: 2, budget: 1, curated: 0 } });
  });

  it('does not overwrite unseen an answer another reviewer gave meanwhile, when told which verdict the answer was given against', async () => {
    const p = await newProject();
    const t = badTrace({ query: questionWhere(false) });
    await send(p, [t], [{ traceId: t.traceId, signalType: 'wrong_source', detail: { chunkId: 'credit-1' } }]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const id = (await admin<{ items: { id: string }[] }>(p, '/review')).body.items[0]!.id;
    const answer = (json: object) => admin<{ verdict: string | null }>(p, `/review/${id}`, { method: 'POST', json });
    // Two reviewers both saw it unanswered: the first answer stands, the second is refused and changes nothing.
    expect((await answer({ verdict: 'relevant', ifVerdict: null })).body).toMatchObject({ verdict: 'relevant' });
    expect(await answer({ verdict: 'not_relevant', note: 'wrong topic', ifVerdict: null })).toMatchObject({
      status: 409,
      body: { error: { code: 'review_item_changed', field: 'ifVerdict' } },
    });
    expect((await admin(p, `/review/${id}`)).body).toMatchObject({ verdict: 'relevant', note: null });
    // The first answer sent again (its response lost on the way) is taken as before.
    expect((await answer({ verdict: 'relevant', ifVerdict: null })).body).toMatchObject({ verdict: 'relevant' });
    // Given against what it now is, the answer replaces it; without `ifVerdict` the last answer wins, as before.
    expect((await answer({ verdict: 'not_relevant', ifVerdict: 'relevant' })).body).toMatchObject({ verdict: 'not_relevant' });
    expect((await answer({ verdict: 'unclear' })).body).toMatchObject({ verdict: 'unclear' });
    expect(await answer({ verdict: 'relevant', ifVerdict: 'maybe' })).toMatchObject({ status: 400, body: { error: { field: 'ifVerdict' } } });
  });

  it('does not erase unseen the note of an answer another reviewer gave meanwhile with the same verdict', async () => {
    const p = await newProject();
    const t = badTrace({ query: questionWhere(false) });
    await send(p, [t], [{ traceId: t.traceId, signalType: 'wrong_source', detail: { chunkId: 'credit-1' } }]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const id = (await admin<{ items: { id: string }[] }>(p, '/review')).body.items[0]!.id;
    const answer = (json: object) => admin<{ verdict: string | null; note: string | null }>(p, `/review/${id}`, { method: 'POST', json });
    expect((await answer({ verdict: 'not_relevant', note: 'about refunds, not credit', ifVerdict: null })).body).toMatchObject({ verdict: 'not_relevant' });
    // Another reviewer, who saw it unanswered, gives the same verdict without the note: refused, the note stays.
    expect(await answer({ verdict: 'not_relevant', ifVerdict: null })).toMatchObject({ status: 409, body: { error: { code: 'review_item_changed' } } });
    expect((await admin(p, `/review/${id}`)).body).toMatchObject({ verdict: 'not_relevant', note: 'about refunds, not credit' });
    // The first answer sent again, note and all (its response lost), is taken; given against what it is, any answer is.
    expect((await answer({ verdict: 'not_relevant', note: 'about refunds, not credit', ifVerdict: null })).status).toBe(200);
    expect((await answer({ verdict: 'not_relevant', ifVerdict: 'not_relevant' })).body).toMatchObject({ verdict: 'not_relevant', note: null });
  });

  it('answers bad admin input with a 4xx naming the field', async () => {
    const p = await newProject();
    expect(await admin(p, '/worst-traces?days=abc')).toMatchObject({ status: 400, body: { error: { code: 'invalid_query', field: 'query.days' } } });
    expect(await admin(p, '/review?status=all')).toMatchObject({ status: 400, body: { error: { field: 'query.status' } } });
    expect(await admin(p, '/review/nope', { method: 'POST', json: { verdict: 'relevant' } })).toMatchObject({ status: 404, body: { error: { field: 'id' } } });
    expect(await admin(p, '/review/nope')).toMatchObject({ status: 404, body: { error: { code: 'item_not_found', field: 'id' } } });
    expect(await admin(p, '/review/nope', { method: 'POST', json: { verdict: 'maybe' } })).toMatchObject({
      status: 400,
      body: { error: { field: 'verdict' } },
    });
    expect(await admin(p, '/settings', { method: 'PUT', json: { retentionDays: 0 } })).toMatchObject({
      status: 400,
      body: { error: { field: 'retentionDays' } },
    });
    expect((await admin(p, '/settings')).body).toMatchObject({ retentionDays: 90 });
  });
});
