import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { queryKey } from '../../shared/terms.ts';
import { utcDay } from '../../shared/time.ts';
import { isHeldOut } from '../loop/eval-sets.ts';
import { ERASE_PASS_QUERIES, eraseUser } from '../storage/erasure.ts';
import { countedD1 } from '../storage/sql/counted-d1.ts';
import { bearer, call, event, newProject, nightsAfterNow, ORIGIN, reviewRowsOf, rowsNaming, trace } from '../test/fixtures.ts';
import { signedInMidConversation } from '../test/sessions.ts';
import { runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

async function send(p: Project, traces: TraceInput[], events: Parameters<typeof event>[0][]) {
  if (traces.length) expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces })).status).toBe(200);
  const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: events.map((e) => event(e)) } });
  expect(res.status).toBe(200);
}

const DAY = 86_400_000;

const admin = (p: Project, path: string, init: RequestInit = {}) => call(`/v1/admin${path}`, { ...init, headers: bearer(p.keys.admin) });

const chunks = [
  { chunkId: 'good', sourceDocId: 'guide.md', score: 0.9, rank: 1, text: 'Opened items can be refunded within 14 days.' },
  { chunkId: 'bad', sourceDocId: 'other.md', score: 0.8, rank: 2, text: 'Shipping takes five days.' },
];

/** Queries the split holds out for evaluation, so the test does not depend on which ones it picks. */
const heldOutQueries = (n: number) =>
  Array.from({ length: 200 }, (_, i) => `refund question number ${i}`)
    .filter((q) => isHeldOut(queryKey(q)))
    .slice(0, n);

const count = async (table: string, projectId: string) =>
  (await env.DB.prepare(`select count(*) as n from ${table} where project_id = ?`).bind(projectId).first<{ n: number }>())!.n;

describe('eval sets, loop health, retention and erasure', () => {
  it('builds the weekly eval sets from clear feedback on held-out queries and exports them as JSONL', async () => {
    const p = await newProject();
    const [q1, q2] = heldOutQueries(2);
    const a = trace({ query: q1!, retrievedChunks: chunks, rerankedChunks: undefined, sessionId: 'sa', createdAt: Date.now() - 60_000 });
    const b = trace({ query: q2!, retrievedChunks: chunks, rerankedChunks: undefined, sessionId: 'sb', createdAt: Date.now() - 50_000 });
    await send(
      p,
      [a, b],
      [
        { traceId: a.traceId, sessionId: 'sa', signalType: 'thumbs_up' },
        { traceId: a.traceId, sessionId: 'sa', signalType: 'copy_source', detail: { chunkId: 'good', chars: 40 } },
        { traceId: b.traceId, sessionId: 'sb', signalType: 'wrong_source', detail: { chunkId: 'bad' } },
      ],
    );
    const summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(summary.runs[0]!.stages.find((s) => s.name === 'evals')!.counts).toMatchObject({ echo: 2 });
    const res = await admin(p, '/eval-sets/echo');
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.query, l.judgements]).sort()).toEqual([
      [q1, { good: 1 }],
      [q2, { bad: 0 }],
    ]);
    expect(lines[0].candidates.map((c: { chunkId: string }) => c.chunkId)).toEqual(['good', 'bad']);
    expect(lines[0].candidates[0].text).toContain('14 days');
    expect((await admin(p, '/eval-sets/nonsense')).status).toBe(404);
  });

  it('snapshots loop health for the night', async () => {
    const p = await newProject();
    const t = trace({ retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 });
    const quiet = trace({ retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 });
    await send(
      p,
      [t, quiet],
      [
        { traceId: t.traceId, signalType: 'thumbs_down', clientTs: Date.now() - 4_000 },
        { traceId: t.traceId, signalType: 'citation_click', detail: { chunkId: 'good' }, clientTs: Date.now() - 6_000 },
        // Context, not feedback: the quiet answer stays uncovered.
        { traceId: quiet.traceId, signalType: 'answer_dwell', detail: { ms: 40_000 }, clientTs: Date.now() - 6_000 },
        { traceId: quiet.traceId, signalType: 'web_vitals', detail: { name: 'LCP', value: 900, rating: 'good' }, clientTs: Date.now() - 6_000 },
      ],
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const body = (await (await admin(p, '/health')).json()) as { latest: { servedModel: string | null; metrics: Record<string, number | null> } };
    expect(body.latest.servedModel).toBeNull();
    expect(body.latest.metrics).not.toHaveProperty('servedModel');
    expect(body.latest.metrics).toMatchObject({
      traces: 2,
      coverage: 0.5,
      explicitSignals: 1,
      implicitSignals: 1,
      reviewBudgetPerWeek: 90,
      loopClosureRate: null,
    });
    // The click contradicts the thumbs-down on the same answer: the noise filter keeps one of two.
    expect(body.latest.metrics.effectiveRate).toBe(0.5);
    // From the user's action to its storage: the upper middle of 4, 6, 6 and 6 s, and the time the send took.
    expect(body.latest.metrics.eventToStorageMs).toBeGreaterThanOrEqual(6_000);
    expect(body.latest.metrics.eventToStorageMs).toBeLessThan(12_000);
    expect(body.latest.metrics.reviewQueue).toBeGreaterThan(0);
  });

  it('counts no negative latency from a browser whose clock runs ahead', async () => {
    const p = await newProject();
    const t = trace({ retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 });
    await send(
      p,
      [t],
      [30_000, 40_000, 50_000].map((ahead) => ({
        traceId: t.traceId,
        signalType: 'copy_answer' as const,
        detail: { chars: 10 },
        clientTs: Date.now() + ahead,
      })),
    );
    await runNightly(env, Date.now() + 60_000, { projects: [p.id] });
    const body = (await (await admin(p, '/health')).json()) as { latest: { metrics: Record<string, number | null> } };
    expect(body.latest.metrics.eventToStorageMs).toBe(0);
  });

  it('purges raw data past retention and keeps the aggregates until their own', async () => {
    const p = await newProject();
    const t = trace({ retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 });
    await send(
      p,
      [t],
      [
        { traceId: t.traceId, signalType: 'thumbs_down' },
        { traceId: t.traceId, signalType: 'citation_click', detail: { chunkId: 'bad' } },
      ],
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(await count('feedback_events', p.id)).toBe(2);
    const listed = async () =>
      (await env.DB.prepare(`select count(*) as n from document_days where project_id = ? and worst <> '[]'`).bind(p.id).first<{ n: number }>())!.n;
    expect(await listed()).toBeGreaterThan(0);
    // 36 days later the day has left the window documents are judged over: its worst answers go, its counts and answers stay.
    await runNightly(env, nightsAfterNow(36), { projects: [p.id] });
    expect(await listed()).toBe(0);
    expect(await count('document_days', p.id)).toBeGreaterThan(0);
    expect(await count('traces', p.id)).toBe(1);
    // 91 days later the raw rows are past the default 90 days; the day's aggregate is not.
    await runNightly(env, nightsAfterNow(91), { projects: [p.id] });
    for (const table of ['feedback_events', 'event_assessments', 'traces', 'trace_chunks', 'chunk_texts', 'trace_stats'])
      expect(await count(table, p.id)).toBe(0);
    const aggregates = ['day_stats', 'document_days', 'session_stats', 'chunk_stats', 'chunk_signal_days', 'health_snapshots'];
    for (const table of aggregates) expect(await count(table, p.id), table).toBeGreaterThan(0);
    // The items the answer raised, unanswered, went with it.
    for (const table of ['review_items', 'review_item_traces']) expect(await count(table, p.id), table).toBe(0);
    // Past the aggregates' own retention (two years by default) they go too; the snapshots of the
    // last three runs (36 days, 91 days and two years on) are younger.
    await runNightly(env, nightsAfterNow(731), { projects: [p.id] });
    for (const table of aggregates) expect(await count(table, p.id), table).toBe(table === 'health_snapshots' ? 3 : 0);
  });

  it('keeps the outbox drops widgets reported as long as the raw rows, and counts them in loop health meanwhile', async () => {
    const p = await newProject();
    const t = trace({ createdAt: Date.now() - 60_000 });
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [t] })).status).toBe(200);
    const res = await call('/v1/events', {
      method: 'POST',
      headers: { ...bearer(p.keys.write), origin: ORIGIN },
      json: { events: [event({ traceId: t.traceId, signalType: 'thumbs_up' })], dropped: 7 },
    });
    expect(res.status).toBe(200);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(await count('client_drop_reports', p.id)).toBe(1);
    const snapshot = await env.DB.prepare('select metrics from health_snapshots where project_id = ? order by day desc limit 1')
      .bind(p.id)
      .first<{ metrics: string }>();
    expect(JSON.parse(snapshot!.metrics).outboxDrops).toBe(7);
    await runNightly(env, Date.now() + 91 * DAY, { projects: [p.id] });
    expect(await count('client_drop_reports', p.id)).toBe(0);
  });

  it('keeps a correction as long as its event, whatever its browser’s clock said, and purges them together', async () => {
    const p = await newProject();
    const t = trace({ retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 });
    const text = 'Opened items get a refund within 14 days, not store credit';
    await send(p, [t], [{ traceId: t.traceId, signalType: 'correction', detail: { text }, clientTs: Date.now() - 200 * 86_400_000 }]);
    // One whose event is gone, as a browser's time running ahead once kept them.
    await env.DB.prepare(
      `insert into corrections (project_id, event_id, trace_id, query, text, confidence, status, created_at) values (?, 'gone', 'gone', 'q', 't', 0.95, 'open', ?)`,
    )
      .bind(p.id, Date.now() + 400 * 86_400_000)
      .run();
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(await env.DB.prepare('select event_id from corrections where project_id = ?').bind(p.id).all()).toMatchObject({
      results: [{ event_id: expect.not.stringMatching(/^gone$/) }],
    });
    await runNightly(env, nightsAfterNow(91), { projects: [p.id] });
    expect([await count('corrections', p.id), await count('feedback_events', p.id)]).toEqual([0, 0]);
  });

  it("keeps a chunk's counts past its answers' and events' retention, and adds new ones to them", async () => {
    const p = await newProject();
    const answerWithClick = async () => {
      const t = trace({ retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 });
      await send(p, [t], [{ traceId: t.traceId, signalType: 'citation_click', detail: { chunkId: 'good' }, clientTs: Date.now() - 30_000 }]);
    };
    const stats = () =>
      env.DB.prepare("select retrieved, top_ranked, clicks, weighted_score from chunk_stats where project_id = ? and chunk_id = 'good'").bind(p.id).first();
    // An answer and a click that arrived 91 days ago: counted, then purged, in the same run.
    await answerWithClick();
    const arrived = Date.now() - 91 * 86_400_000;
    for (const table of ['traces', 'feedback_events'])
      await env.DB.prepare(`update ${table} set received_at = ? where project_id = ?`).bind(arrived, p.id).run();
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(await count('traces', p.id)).toBe(0);
    expect(await count('feedback_events', p.id)).toBe(0);
    const first = await stats();
    expect(first).toMatchObject({ retrieved: 1, top_ranked: 1, clicks: 1 });
    expect(first!.weighted_score).toBeGreaterThan(0);
    // A run that purged and stopped before it finished leaves that day on its list: the next one keeps it as it was counted.
    const purgedDay = utcDay(arrived);
    await env.DB.prepare("insert into loop_touched (project_id, night, kind, key) values (?, '2000-01-01', 'chunk_day', ?)")
      .bind(p.id, `good\u0001${purgedDay}`)
      .run();
    // A new answer and click add to what the purged ones left.
    await answerWithClick();
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(await stats()).toEqual({ ...first, retrieved: 2, top_ranked: 2, clicks: 2 });
  });

  it('purges raw rows in whole days of arrival: the day the cutoff falls in is kept whole', async () => {
    const p = await newProject();
    const t = trace({ retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 });
    await send(p, [t], [{ traceId: t.traceId, signalType: 'thumbs_down' }]);
    // Both arrived at noon yesterday, whatever the hour the test runs at.
    const arrived = Date.parse(`${utcDay(Date.now() - 86_400_000)}T12:00:00Z`);
    for (const table of ['traces', 'feedback_events'])
      await env.DB.prepare(`update ${table} set received_at = ? where project_id = ?`).bind(arrived, p.id).run();
    // Ninety days and a second after they arrived: past the retention by the clock, within it by the day.
    const night = arrived + 90 * 86_400_000 + 1_000;
    await runNightly(env, night, { projects: [p.id] });
    expect([await count('traces', p.id), await count('feedback_events', p.id)]).toEqual([1, 1]);
    await runNightly(env, night + 86_400_000, { projects: [p.id] });
    expect([await count('traces', p.id), await count('feedback_events', p.id)]).toEqual([0, 0]);
  });

  it('clears what a run abandoned before it finished kept, once a later run gets to retention', async () => {
    const p = await newProject();
    const flood = Array.from({ length: 12 }, () =>
      trace({ sessionId: 'flooder', retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 }),
    );
    await send(
      p,
      flood,
      flood.map((t, i) => ({ traceId: t.traceId, sessionId: 'flooder', signalType: 'thumbs_down' as const, clientTs: Date.now() - 50_000 + i * 1_000 })),
    );
    const kept = async () => ({
      listed: await count('loop_touched', p.id),
      scores: (await count('loop_query_history', p.id)) + (await count('loop_trace_history', p.id)),
      states: (await env.DB.prepare('select state from loop_runs where project_id = ?').bind(p.id).all<{ state: string }>()).results.map((r) => r.state),
    });
    // Tonight's run stops after assessing and is never continued: the next night starts its own.
    let summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id], maxSlices: 5 });
    expect(summary.done).toBe(false);
    // An answer's score it kept as found (assess keeps them for the answers it rescores).
    await env.DB.prepare(
      `insert or ignore into loop_trace_history (project_id, night, trace_id, query_key, weighted_score) select project_id, night, ?2, 'flood', -1 from loop_runs where project_id = ?1`,
    )
      .bind(p.id, flood[0]!.traceId)
      .run();
    const abandoned = await kept();
    expect(abandoned.listed).toBeGreaterThan(0);
    expect(abandoned.scores).toBeGreaterThan(0);
    expect(abandoned.states.join()).toContain('flooder');
    summary = await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(summary.done).toBe(true);
    expect(summary.runs[0]!.stages.find((s) => s.name === 'retention')!.counts.abandonedListRows).toBe(abandoned.listed + abandoned.scores);
    const after = await kept();
    expect(after.listed).toBe(0);
    expect(after.scores).toBe(0);
    expect(after.states).toHaveLength(2);
    expect(after.states.join()).not.toContain('flooder');
  });

  it('erases a user with more answers than one call may erase over several calls, each erasing whole batches within its queries', async () => {
    const p = await newProject();
    const answers = Array.from({ length: 5 }, (_, i) =>
      trace({ userIdHash: 'u-busy', sessionId: `busy-${i}`, retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 }),
    );
    await send(
      p,
      answers,
      answers.map((t) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: 'thumbs_down' as const })),
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    // Room for one batch of two answers a call.
    const calls: { traces: number; done: boolean; queries: number }[] = [];
    for (let done = false; !done && calls.length < 10; ) {
      const counted = countedD1(env.DB);
      const r = await eraseUser(counted.db, p.id, 'u-busy', { queryBudget: ERASE_PASS_QUERIES, tracesPerBatch: 2 });
      calls.push({ traces: r.deleted.traces, done: r.done, queries: counted.queries() });
      done = r.done;
    }
    expect(calls.map(({ traces, done }) => [traces, done])).toEqual([
      [2, false],
      [2, false],
      [1, false],
      [0, true],
    ]);
    for (const c of calls) expect(c.queries).toBeLessThanOrEqual(ERASE_PASS_QUERIES);
    expect(await rowsNaming(p.id, ['u-busy', ...answers.map((t) => t.traceId)])).toEqual([]);
    // Past its time, a call starts no other batch either.
    const slow = [trace({ userIdHash: 'u-slow', sessionId: 'slow' }), trace({ userIdHash: 'u-slow', sessionId: 'slow' })];
    await send(
      p,
      slow,
      slow.map((t) => ({ traceId: t.traceId, sessionId: 'slow', signalType: 'thumbs_up' as const })),
    );
    const first = await eraseUser(env.DB, p.id, 'u-slow', { timeBudgetMs: -1, tracesPerBatch: 1 });
    expect(first).toEqual({ deleted: { traces: 1, events: 1, reviewItems: 0, corrections: 0 }, done: false });
    expect((await eraseUser(env.DB, p.id, 'u-slow')).done).toBe(true);
  });

  it('erases everything of one user, whose id may be in any format ingestion takes, and answers with the counts', async () => {
    const p = await newProject();
    // Ids are the team's own, in its own format: Unicode, spaces and slashes within.
    const gone = 'usuário 7 § gone/1';
    const mine = trace({ userIdHash: gone, retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000, sessionId: 'sg' });
    const theirs = trace({ userIdHash: 'u-stays', retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000, sessionId: 'ss' });
    await send(
      p,
      [mine, theirs],
      [
        { traceId: mine.traceId, sessionId: 'sg', signalType: 'correction', detail: { text: 'It is 30 days for opened items, see guide' } },
        { traceId: mine.traceId, sessionId: 'sg', signalType: 'thumbs_down' },
        { traceId: theirs.traceId, sessionId: 'ss', signalType: 'thumbs_down' },
      ],
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const res = await admin(p, `/users/${encodeURIComponent(gone)}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ userIdHash: gone, deleted: { traces: 1, events: 2, reviewItems: 0, corrections: 1 }, done: true });
    const left = async (sql: string) => (await env.DB.prepare(sql).bind(p.id, mine.traceId).all()).results.length;
    expect(await left('select 1 from traces where project_id = ? and trace_id = ?')).toBe(0);
    expect(await left('select 1 from feedback_events where project_id = ? and trace_id = ?')).toBe(0);
    expect(await left('select 1 from review_item_traces where project_id = ? and trace_id = ?')).toBe(0);
    expect(await left('select 1 from corrections where project_id = ? and trace_id = ?')).toBe(0);
    // The other user's share of the shared items is intact.
    const items = await env.DB.prepare('select trace_count from review_items where project_id = ?').bind(p.id).all<{ trace_count: number }>();
    expect(items.results.length).toBeGreaterThan(0);
    // What no trace can hold is refused, naming the field in field and fields.
    for (const bad of [' leading-space', 'x'.repeat(513)]) {
      const refused = await admin(p, `/users/${encodeURIComponent(bad)}`, { method: 'DELETE' });
      expect(refused.status).toBe(400);
      const message = 'Not a user id a trace can hold';
      expect(await refused.json()).toEqual({ error: { code: 'invalid_user', message, field: 'userIdHash', fields: [{ field: 'userIdHash', message }] } });
    }
  });

  it("counts again for their own answers the events another user's erased answer had been attributed", async () => {
    const p = await newProject();
    const t0 = Date.now() - 600_000;
    const turn = (i: number, userIdHash: string, query: string, answer: string) =>
      trace({ userIdHash, sessionId: 'shared', turnIndex: i, createdAt: t0 + i * 60_000, query, answer, retrievedChunks: chunks, rerankedChunks: undefined });
    // The second turn's correction is about the first turn's answer, which the attribution finds.
    const first = turn(0, 'u-gone', 'And if the item was opened?', 'Opened items are refunded as store credit [1].');
    const second = turn(1, 'u-stays', 'Do you ship to Canada?', 'Yes, shipping to Canada takes 5 to 8 days [2].');
    const at = (seconds: number) => ({ traceId: second.traceId, sessionId: 'shared', clientTs: t0 + 60_000 + seconds * 1_000 });
    await send(
      p,
      [first, second],
      [
        { ...at(25), signalType: 'citation_click', detail: { chunkId: 'bad' } },
        // Too short to say what was wrong, but pointing back.
        { ...at(40), signalType: 'correction', detail: { text: 'earlier' } },
      ],
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const stats = () =>
      env.DB.prepare('select live_signals, explicit_signals, weighted_score from trace_stats where project_id = ? and trace_id = ?')
        .bind(p.id, second.traceId)
        .first<{ live_signals: number; explicit_signals: number; weighted_score: number }>();
    // Before: the correction counts for the first answer.
    expect(await stats()).toMatchObject({ live_signals: 1, explicit_signals: 0 });
    expect((await admin(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    // After: its attribution went with the erased answer, so it counts for its own answer, as readers now take it.
    const after = await stats();
    expect(after).toMatchObject({ live_signals: 2, explicit_signals: 1 });
    expect(after!.weighted_score).toBeLessThan(0);
    // What the noise filter found about it stays.
    const verdict = await env.DB.prepare('select attributed_trace_id, attribution, rules from event_assessments where project_id = ? and trace_id = ?')
      .bind(p.id, second.traceId)
      .first<{ attributed_trace_id: string; attribution: string | null; rules: string }>();
    expect(verdict).toMatchObject({ attributed_trace_id: second.traceId, attribution: null });
    expect(JSON.parse(verdict!.rules).map((r: { rule: string }) => r.rule)).toEqual(['terse_text']);
  });

  it("takes an erased user's signal out of the answer it was attributed to, and their answer out of the turns others' signals were weighed against", async () => {
    const p = await newProject();
    // One conversation: a first turn before signing in, then the user's, then another's on the same device.
    const { sessionId, t0, first, theirs, correction, later } = signedInMidConversation([
      { userIdHash: 'u-next', query: 'How long does a refund take?', answer: 'Refunds take 5 days [1].' },
    ]);
    const next = later[0]!;
    await send(p, [first, theirs, next], [correction, { traceId: next.traceId, sessionId, clientTs: t0 + 150_000, signalType: 'thumbs_down' }]);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const firstStats = () =>
      env.DB.prepare('select live_signals from trace_stats where project_id = ? and trace_id = ?').bind(p.id, first.traceId).first<{ live_signals: number }>();
    // Before: the user's correction counts for the first turn; the other's vote was weighed against the user's turn.
    expect(await firstStats()).toEqual({ live_signals: 1 });
    const weighed = await env.DB.prepare('select attribution from event_assessments where project_id = ? and trace_id = ?')
      .bind(p.id, next.traceId)
      .first<{ attribution: string }>();
    expect(weighed!.attribution).toContain(theirs.traceId);
    expect((await admin(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    expect(await firstStats()).toEqual({ live_signals: 0 });
    expect(await rowsNaming(p.id, [theirs.traceId, 'u-gone'])).toEqual([]);
    const after = await env.DB.prepare('select attribution from event_assessments where project_id = ? and trace_id = ?')
      .bind(p.id, next.traceId)
      .first<{ attribution: string }>();
    expect(JSON.parse(after!.attribution).scores.map((c: { traceId: string }) => c.traceId)).toEqual(expect.arrayContaining([next.traceId]));
  });

  it("mines again, at the next run, an answer whose only signal was an erased user's correction, even when erased while a run is under way", async () => {
    const p = await newProject();
    const { first, theirs, correction } = signedInMidConversation();
    await send(p, [first, theirs], [correction]);
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projects: [p.id] });
    const mined = () => reviewRowsOf(p.id, first.traceId);
    // The correction the attribution moved onto the first turn (a turn before signing in) made it a bad answer.
    expect(await mined()).toBeGreaterThan(0);
    // The next night's run is under way, past listing what it looks at, when the user is erased.
    while ((await runNightly(env, now + DAY, { projects: [p.id], maxSlices: 1 })).runs[0]!.stage !== 'mine');
    expect((await admin(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    expect((await runNightly(env, now + DAY, { projects: [p.id] })).done).toBe(true);
    // The night after, the first turn, with no signal left, leaves the review queue.
    expect((await runNightly(env, now + 2 * DAY, { projects: [p.id] })).done).toBe(true);
    expect(await mined()).toBe(0);
    expect(await count('review_items', p.id)).toBe(0);
  });

  it('removes, at the next retention, the chunk texts only an erased user’s answers used, and only those', async () => {
    const p = await newProject();
    const only = { chunkId: 'only-theirs', sourceDocId: 'guide.md', score: 0.7, rank: 2, text: 'Gift cards never expire.' };
    const newer = { ...chunks[0]!, sourceDocVersion: 'v2', text: 'Opened items can be refunded within 30 days.' };
    const gone = trace({ userIdHash: 'u-gone', retrievedChunks: [newer, only], rerankedChunks: undefined, sessionId: 'sg' });
    const stays = trace({ userIdHash: 'u-stays', retrievedChunks: chunks, rerankedChunks: undefined, sessionId: 'ss' });
    await send(p, [gone, stays], [{ traceId: gone.traceId, sessionId: 'sg', signalType: 'thumbs_down' }]);
    const texts = async () =>
      (
        await env.DB.prepare(`select chunk_id || ':' || source_doc_version as t from chunk_texts where project_id = ? order by 1`)
          .bind(p.id)
          .all<{ t: string }>()
      ).results.map((r) => r.t);
    const all = ['bad:', 'good:', 'good:v2', 'only-theirs:'];
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(await texts()).toEqual(all);
    expect((await admin(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    expect(await texts()).toEqual(all);
    // The next night's retention: the chunk only they retrieved, and the version of a shared chunk only they saw, go.
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(await texts()).toEqual(['bad:', 'good:']);
    expect(await count('chunk_text_checks', p.id)).toBe(0);
  });

  it("takes the user's sources out of what a run in progress found flooding, and their traces out of flagged documents' evidence", async () => {
    const p = await newProject();
    const flood = Array.from({ length: 12 }, () =>
      trace({ userIdHash: 'u-flood', sessionId: 's-flood', retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 }),
    );
    await send(
      p,
      flood,
      flood.map((t, i) => ({ traceId: t.traceId, sessionId: 's-flood', signalType: 'thumbs_down' as const, clientTs: Date.now() - 50_000 + i * 1_000 })),
    );
    await env.DB.prepare(
      `insert into document_flags (project_id, source_doc_id, source_doc_version, reasons, counts, evidence, first_flagged, last_flagged)
       values (?, 'guide.md', '*', '[]', '{}', ?, '2026-11-01', '2026-11-01')`,
    )
      .bind(p.id, JSON.stringify([flood[0]!.traceId, 'someone-else', flood[1]!.traceId]))
      .run();
    // Prepare's three slices: the run now knows its flooding sources.
    await runNightly(env, Date.now() + 1_000, { projects: [p.id], maxSlices: 3 });
    const state = async () => (await env.DB.prepare('select state from loop_runs where project_id = ?').bind(p.id).first<{ state: string }>())!.state;
    expect(await state()).toContain('s-flood');
    expect((await admin(p, '/users/u-flood', { method: 'DELETE' })).status).toBe(200);
    expect(JSON.parse(await state())).toMatchObject({ flooding: {} });
    // The run goes on and saves its state after each slice: what erasure took out stays out.
    await runNightly(env, Date.now() + 1_000, { projects: [p.id], maxSlices: 3 });
    expect(await state()).not.toContain('s-flood');
    const flag = await env.DB.prepare('select evidence from document_flags where project_id = ?').bind(p.id).first<{ evidence: string }>();
    expect(JSON.parse(flag!.evidence)).toEqual(['someone-else']);
  });

  it('leaves nothing of the user in any table, when erased in the middle of a run and after it', async () => {
    const p = await newProject();
    const sessionOf = (who: string) => `s-${who}`;
    const answer = (who: string, query: string, signal: 'thumbs_down' | 'thumbs_up') => {
      const t = trace({
        userIdHash: who,
        sessionId: sessionOf(who),
        query,
        retrievedChunks: chunks,
        rerankedChunks: undefined,
        createdAt: Date.now() - 60_000,
      });
      return { t, e: { traceId: t.traceId, sessionId: sessionOf(who), signalType: signal } };
    };
    // The user asks a question no one else asks and one another user asks too; both are clearly judged, so mining lists them.
    const own = answer('u-gone', 'Can zebras renew a platinum membership?', 'thumbs_down');
    const shared = answer('u-gone', 'Can opened items be refunded?', 'thumbs_down');
    const other = answer('u-stays', 'Can opened items be refunded?', 'thumbs_up');
    await send(p, [own.t, shared.t, other.t], [own.e, shared.e, other.e]);
    // Mined once; then new signals on every answer, so that the next run also lists the rows stored for them.
    expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);
    const flag = (e: typeof own.e) => ({ ...e, signalType: 'wrong_source' as const, detail: { chunkId: 'bad' } });
    await send(p, [], [flag(own.e), flag(shared.e), { ...other.e, signalType: 'citation_click', detail: { chunkId: 'good' } }]);
    const needles = ['u-gone', sessionOf('u-gone'), own.t.traceId, shared.t.traceId, queryKey(own.t.query)];
    const listed = async () =>
      (await env.DB.prepare('select kind, key from loop_touched where project_id = ?').bind(p.id).all<{ kind: string; key: string }>()).results;
    const night = Date.now() + 86_400_000;

    // Run slice by slice until mining has listed the questions, then erase.
    for (let i = 0; !(await listed()).some((r) => r.kind === 'question'); i++) {
      expect(i).toBeLessThan(40);
      await runNightly(env, night, { projects: [p.id], maxSlices: 1 });
    }
    expect((await listed()).some((r) => r.key.includes(queryKey(own.t.query)))).toBe(true);
    expect((await listed()).some((r) => r.kind === 'mined' && r.key.startsWith(own.t.traceId))).toBe(true);
    expect((await admin(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    const left = await listed();
    expect(left.filter((r) => needles.some((n) => r.key.includes(n)))).toEqual([]);
    // The question another user still asks stays listed for them.
    expect(
      left
        .filter((r) => r.key.includes(queryKey(other.t.query)))
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['judged', 'query', 'question']);

    expect((await runNightly(env, night, { projects: [p.id] })).done).toBe(true);
    await expect(rowsNaming(p.id, needles)).resolves.toEqual([]);
    expect(await count('traces', p.id)).toBe(1);

    // Erased after a run: the other user's traces go the same way, and nothing of theirs is left either.
    const later = answer('u-stays', 'Why do zebras have stripes?', 'thumbs_down');
    await send(p, [later.t], [later.e]);
    expect((await runNightly(env, nightsAfterNow(2), { projects: [p.id] })).done).toBe(true);
    expect((await admin(p, '/users/u-stays', { method: 'DELETE' })).status).toBe(200);
    await expect(
      rowsNaming(p.id, ['u-stays', sessionOf('u-stays'), other.t.traceId, later.t.traceId, queryKey(later.t.query), queryKey(other.t.query)]),
    ).resolves.toEqual([]);
  });
});
