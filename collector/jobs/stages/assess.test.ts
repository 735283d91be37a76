import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { traceStatsUpsert } from '../../storage/trace-stats-upsert.ts';
import { newProject, nightsAfterNow, sendTraffic, trace } from '../../test/fixtures.ts';
import { runNightly } from '../nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const send = sendTraffic;

const statsOf = async (projectId: string) =>
  (await env.DB.prepare('select * from trace_stats where project_id = ? order by trace_id').bind(projectId).all<Record<string, unknown>>()).results.map(
    ({ updated_at, ...row }) => row,
  );

const scoresOf = async (projectId: string) => ({
  kept: (
    await env.DB.prepare('select query_key, traces, round(total, 9) as total from query_scores where project_id = ? and traces > 0 order by query_key')
      .bind(projectId)
      .all()
  ).results,
  summed: (
    await env.DB.prepare(
      `select query_key, count(*) as traces, round(sum(weighted_score), 9) as total from trace_stats where project_id = ? and weighted_score is not null
       group by query_key order by query_key`,
    )
      .bind(projectId)
      .all()
  ).results,
});

/** Three sessions of a few turns: votes, a flipped vote, clicks, rephrases, and corrections about an earlier turn. */
async function traffic(p: Project) {
  const t0 = Date.UTC(2026, 10, 6, 9);
  const turn = (session: string, i: number, query: string, answer: string) =>
    trace({ traceId: `${session}-${i}`, sessionId: session, turnIndex: i, createdAt: t0 + i * 60_000, query, answer });
  const traces = ['a', 'b', 'c'].flatMap((s) => [
    turn(s, 0, 'What are the refund conditions?', 'Unopened items can be refunded within 30 days with a receipt.'),
    turn(s, 1, 'And if the item was opened?', 'Opened items are refunded as store credit.'),
    turn(s, 2, 'Do you ship to Canada?', 'Yes, shipping to Canada takes 5 to 8 days.'),
  ]);
  const at = (s: string, i: number, seconds: number) => ({ traceId: `${s}-${i}`, sessionId: s, clientTs: t0 + i * 60_000 + seconds * 1_000 });
  const events = ['a', 'b', 'c'].flatMap((s) => [
    { ...at(s, 0, 20), signalType: 'thumbs_up' as const },
    { ...at(s, 0, 30), signalType: 'citation_click' as const, detail: { chunkId: 'c1' } },
    { ...at(s, 1, 10), signalType: 'thumbs_up' as const },
    { ...at(s, 1, 15), signalType: 'thumbs_down' as const },
    { ...at(s, 1, 20), signalType: 'rephrase_within_session' as const, detail: { nextTraceId: `${s}-2`, similarity: 0.8, gapMs: 40_000 } },
    {
      ...at(s, 2, 30),
      signalType: 'correction' as const,
      detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit' },
    },
    { ...at(s, 2, 40), signalType: 'answer_dwell' as const, detail: { ms: 30_000 } },
  ]);
  await send(p, traces, events);
}

describe('the assess stage', () => {
  it("aggregates a slice's traces as the recompute from every verdict does, whichever slice an attributed event came from", async () => {
    for (const tracesPerSlice of [2_000, 1]) {
      const p = await newProject();
      await traffic(p);
      expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id], tracesPerSlice })).done).toBe(true);
      const moved = await env.DB.prepare('select count(*) as n from event_assessments where project_id = ? and attributed_trace_id <> trace_id')
        .bind(p.id)
        .first<{ n: number }>();
      expect(moved!.n).toBeGreaterThan(0);
      const nightly = await statsOf(p.id);
      expect(nightly.some((r) => r.weighted_score !== null && r.requeried === 1)).toBe(true);
      const keys = (await env.DB.prepare('select trace_id as traceId, query_key as queryKey from trace_stats where project_id = ?').bind(p.id).all()).results;
      await env.DB.batch([traceStatsUpsert(env.DB, p.id, Date.now(), { list: JSON.stringify(keys), until: Date.now() })]);
      expect(await statsOf(p.id)).toEqual(nightly);
    }
  });

  it('stores no verdict for an event no rule touched, stores one a rule changed, and deletes one a later night finds plain', async () => {
    const p = await newProject();
    const t = trace({ sessionId: 's' });
    const at = Date.UTC(2026, 10, 6, 9);
    await send(
      p,
      [t],
      [
        { traceId: t.traceId, sessionId: 's', signalType: 'citation_click', detail: { chunkId: 'c1' }, clientTs: at },
        { traceId: t.traceId, sessionId: 's', signalType: 'thumbs_down', clientTs: at + 10_000 },
        // Copying the answer right after voting it down: the vote was a slip.
        { traceId: t.traceId, sessionId: 's', signalType: 'copy_answer', detail: { chars: 120 }, clientTs: at + 20_000 },
      ],
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const stored = () =>
      env.DB.prepare(
        `select e.signal_type, a.confidence, a.rules ->> '$[0].rule' as rule from event_assessments a join feedback_events e using (project_id, event_id)
         where a.project_id = ? order by e.signal_type`,
      )
        .bind(p.id)
        .all()
        .then((r) => r.results);
    const flagged = [{ signal_type: 'thumbs_down', confidence: 0.27, rule: 'reversed_by_behaviour' }];
    expect(await stored()).toEqual(flagged);
    // A verdict an earlier night stored for the click (a rule that no longer fires): the next night
    // that assesses the trace again finds it plain and deletes it.
    await env.DB.prepare(
      `insert into event_assessments (project_id, event_id, trace_id, attributed_trace_id, confidence, rules, attribution, assessed_at)
       select project_id, event_id, trace_id, trace_id, 0.12, '[{"rule":"contradicts_trace","reason":"then"}]', null, 0 from feedback_events
       where project_id = ? and signal_type = 'citation_click'`,
    )
      .bind(p.id)
      .run();
    expect(await stored()).toHaveLength(2);
    await send(p, [], [{ traceId: t.traceId, sessionId: 's', signalType: 'answer_dwell', detail: { ms: 30_000 }, clientTs: at + 30_000 }]);
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(await stored()).toEqual(flagged);
  });

  it("judges a vote against its answer's length, whether or not the answer belongs to a session", async () => {
    const p = await newProject();
    const alone = trace({ sessionId: undefined });
    const inSession = trace({ sessionId: 'read' });
    await send(
      p,
      [alone, inSession],
      [
        { traceId: alone.traceId, sessionId: 'quick', signalType: 'thumbs_up', shownMs: 250 },
        { traceId: inSession.traceId, sessionId: 'read', signalType: 'thumbs_up', shownMs: 250 },
      ],
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const { results } = await env.DB.prepare(`select trace_id, rules ->> '$[0].rule' as rule from event_assessments where project_id = ? order by trace_id`)
      .bind(p.id)
      .all();
    expect(results).toEqual([alone, inSession].map((t) => ({ trace_id: t.traceId, rule: 'too_fast' })).sort((x, y) => (x.trace_id < y.trace_id ? -1 : 1)));
  });

  it("keeps each query's running totals equal to its traces' scores, through new scores and deleted traces", async () => {
    const p = await newProject();
    await traffic(p);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const first = await scoresOf(p.id);
    expect(first.kept.length).toBeGreaterThan(0);
    expect(first.kept).toEqual(first.summed);
    // Scores change the next night, and a trace goes (erasure, retention).
    await send(p, [], [{ traceId: 'a-0', sessionId: 'a', signalType: 'thumbs_down', clientTs: Date.UTC(2026, 10, 6, 9, 0, 50) }]);
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    await env.DB.prepare(`delete from trace_stats where project_id = ? and trace_id = 'b-0'`).bind(p.id).run();
    const then = await scoresOf(p.id);
    expect(then.kept).not.toEqual(first.kept);
    expect(then.kept).toEqual(then.summed);
  });
});
