import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { baseConfidenceSql } from '../storage/sql/verdict.ts';
import { traceStatsUpsert } from '../storage/trace-stats-upsert.ts';
import { trainingData } from '../storage/training-data.ts';
import { bearer, call, newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const chunks = [
  { chunkId: 'refund-1', sourceDocId: 'refunds.md', score: 0.9, rank: 1, text: 'Opened items can be refunded within 14 days of delivery.' },
  { chunkId: 'shipping-1', sourceDocId: 'shipping.md', score: 0.8, rank: 2, text: 'Shipping to Canada takes 5 to 8 business days.' },
  { chunkId: 'credit-1', sourceDocId: 'credit.md', score: 0.7, rank: 3, text: 'Store credit is issued for opened items and never expires.' },
];

interface ViewEvent {
  eventId: string;
  signalType: string;
  confidence: number | null;
  rules: { rule: string }[];
  attributedTraceId: string | null;
}

const view = async (p: Project, traceId: string) => {
  const res = await call(`/v1/admin/traces/${traceId}`, { headers: bearer(p.keys.admin) });
  expect(res.status).toBe(200);
  return (await res.json()) as { events: ViewEvent[]; attributedHere: ViewEvent[]; stats: Record<string, number> | null };
};

/**
 * A conversation whose last turn's correction points back to the first (attributed: stored), a
 * vote faster than reading (a rule: stored), and plain votes, clicks and copies (not stored).
 */
async function seed(p: Project) {
  const t0 = Date.now() - 600_000;
  const turn = (i: number, query: string, answer: string) =>
    trace({
      traceId: `conv-${i}-${p.id}`,
      sessionId: 'conv',
      turnIndex: i,
      createdAt: t0 + i * 60_000,
      query,
      answer,
      retrievedChunks: chunks,
      rerankedChunks: undefined,
    });
  const traces = [
    turn(0, 'And if the item was opened?', 'Opened items are refunded as store credit [3].'),
    turn(1, 'Do you ship to Canada?', 'Yes, shipping to Canada takes 5 to 8 days [2].'),
    trace({ traceId: `fast-${p.id}`, sessionId: 'quick', createdAt: t0, retrievedChunks: chunks, rerankedChunks: undefined }),
  ];
  const at = (i: number, seconds: number) => ({ traceId: traces[i]!.traceId, sessionId: 'conv', clientTs: t0 + i * 60_000 + seconds * 1_000 });
  await sendTraffic(p, traces, [
    { ...at(0, 20), signalType: 'thumbs_down' },
    { ...at(0, 25), signalType: 'wrong_source', detail: { chunkId: 'credit-1' } },
    { ...at(1, 25), signalType: 'citation_click', detail: { chunkId: 'shipping-1' } },
    { ...at(1, 30), signalType: 'copy_source', detail: { chunkId: 'shipping-1', chars: 40 } },
    {
      ...at(1, 40),
      signalType: 'correction',
      detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
    },
    { traceId: traces[2]!.traceId, sessionId: 'quick', signalType: 'thumbs_up', shownMs: 250, clientTs: t0 + 5_000 },
  ]);
  return traces.map((t) => t.traceId);
}

/**
 * What the readers make of the verdicts: the trace view of each trace, training's engagement, and
 * each trace's aggregate recomputed as the assess stage recomputes it.
 */
async function readers(p: Project, traceIds: readonly string[], now: number) {
  const views = await Promise.all(traceIds.map((id) => view(p, id)));
  const data = await trainingData(env.DB, p.id, now, []);
  const keys = await env.DB.prepare('select trace_id as traceId, query_key as queryKey from trace_stats where project_id = ?').bind(p.id).all();
  // As the night's run assessed them: up to its window's end.
  const run = await env.DB.prepare('select window_to from loop_runs where project_id = ?').bind(p.id).first<{ window_to: number }>();
  await env.DB.batch([traceStatsUpsert(env.DB, p.id, now, { list: JSON.stringify(keys.results), until: run!.window_to })]);
  const stats = (await env.DB.prepare('select * from trace_stats where project_id = ? order by trace_id').bind(p.id).all()).results.map(
    ({ updated_at, ...row }) => row,
  );
  return { views, engagement: data.engagement, queryEngagement: data.queryEngagement, stats };
}

describe('verdicts', () => {
  it('are stored only where a rule or the attribution changed them, and every reader takes a missing one as the base verdict', async () => {
    const p = await newProject();
    const [first, second, fast] = await seed(p);
    expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);

    const stored = await env.DB.prepare(
      `select e.signal_type as signalType, a.trace_id as traceId, a.attributed_trace_id as attributedTraceId, a.rules ->> '$[0].rule' as rule
       from event_assessments a join feedback_events e using (project_id, event_id) where a.project_id = ? order by e.signal_type`,
    )
      .bind(p.id)
      .all();
    expect(stored.results).toEqual([
      { signalType: 'correction', traceId: second, attributedTraceId: first, rule: null },
      { signalType: 'thumbs_up', traceId: fast, attributedTraceId: fast, rule: 'too_fast' },
    ]);

    // A vote that arrives after the night's run: not assessed until the next one.
    await sendTraffic(p, [], [{ traceId: second!, sessionId: 'conv', signalType: 'thumbs_down', clientTs: Date.now() }]);

    const now = Date.now() + 1_000;
    const sparse = await readers(p, [first!, second!, fast!], now);
    const [firstView, secondView, fastView] = sparse.views;
    const verdicts = (events: ViewEvent[]) => events.map((e) => [e.signalType, e.confidence, e.rules.map((r) => r.rule), e.attributedTraceId]);
    expect(verdicts(firstView!.events)).toEqual([
      ['thumbs_down', 0.9, [], first],
      ['wrong_source', 0.9, [], first],
    ]);
    expect(verdicts(secondView!.events)).toEqual([
      ['citation_click', 0.4, [], second],
      ['copy_source', 0.6, [], second],
      ['correction', 0.95, [], first],
      ['thumbs_down', null, [], null],
    ]);
    expect(verdicts(fastView!.events)).toEqual([['thumbs_up', 0.18, ['too_fast'], fast]]);
    expect(firstView!.attributedHere.map((e) => e.signalType)).toEqual(['correction']);
    // The copy and the click of the cited shipping chunk count as engagement; the late vote nothing.
    expect(sparse.engagement.find((r) => r.chunkId === 'shipping-1')?.engaged).toBeGreaterThan(0);
    expect(sparse.stats.find((s) => s.trace_id === first)).toMatchObject({ live_signals: 3, trusted_signals: 3 });

    // The same store as a row for every assessed event wrote it: every reader answers the same.
    await env.DB.prepare(
      `insert into event_assessments (project_id, event_id, trace_id, attributed_trace_id, confidence, rules, attribution, assessed_at)
       select e.project_id, e.event_id, e.trace_id, e.trace_id, ${baseConfidenceSql('e')}, '[]', 'null', 0 from feedback_events e
       where e.project_id = ?1 and e.received_at <= (select window_to from loop_runs where project_id = ?1)
         and not exists (select 1 from event_assessments a where a.project_id = e.project_id and a.event_id = e.event_id)`,
    )
      .bind(p.id)
      .run();
    expect(await readers(p, [first!, second!, fast!], now)).toEqual(sparse);
  });
});
