/** The noise filter's history rule gives the same verdict whichever slice of the night an answer falls in. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { HISTORY_MIN_TRACES } from '../loop/noise.ts';
import { endingBeforeSave, INVOCATION_ENDED } from '../test/ending-invocation.ts';
import { newProject, nightsAfterNow, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;
const QUESTION = 'refund for opened items?';

/**
 * A project whose question was answered well `earlier` times last night, with tonight's traffic
 * sent: `ups` new answers to it voted up (a-0, a-1, …) and another voted down (b-new).
 */
async function lastNightAndTonight(earlier: number, ups = 1) {
  const p = await newProject();
  const old = Array.from({ length: earlier }, (_, i) => trace({ traceId: `old-${i}`, query: QUESTION }));
  await sendTraffic(
    p,
    old,
    old.map((t) => ({ traceId: t.traceId, signalType: 'thumbs_up' as const })),
  );
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  const up = Array.from({ length: ups }, (_, i) => trace({ traceId: `a-${i}`, query: QUESTION }));
  await sendTraffic(
    p,
    [...up, trace({ traceId: 'b-new', query: QUESTION })],
    [...up.map((t) => ({ traceId: t.traceId, signalType: 'thumbs_up' as const })), { traceId: 'b-new', signalType: 'thumbs_down' as const }],
  );
  return p;
}

/** The rules the vote down on b-new was given. */
async function voteDownRules(projectId: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `select r.value ->> 'rule' as rule from feedback_events e join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id, json_each(a.rules) r
     where e.project_id = ? and e.trace_id = 'b-new'`,
  )
    .bind(projectId)
    .all<{ rule: string }>();
  return results.map((r) => r.rule);
}

/** `lastNightAndTonight`, tonight's night run in slices of `tracesPerSlice`: the vote down's rules. */
async function voteDownAfter(earlier: number, tracesPerSlice: number, ups = 1): Promise<string[]> {
  const p = await lastNightAndTonight(earlier, ups);
  await runNightly(env, nightsAfterNow(1), { projects: [p.id], tracesPerSlice });
  return voteDownRules(p.id);
}

describe("the history rule within a night's slices", () => {
  it('weighs a vote against the answers as the night found them, whether tonight’s other answer was assessed in an earlier slice or in the same one', async () => {
    // One answer short of a history: tonight's vote up must not complete it for the vote down.
    const short = HISTORY_MIN_TRACES - 1;
    expect(await voteDownAfter(short, 1)).toEqual(await voteDownAfter(short, 100));
    expect(await voteDownAfter(short, 1)).not.toContain('against_query_history');
    // With a history, the vote down goes against it in either slicing.
    expect(await voteDownAfter(HISTORY_MIN_TRACES, 1)).toContain('against_query_history');
    expect(await voteDownAfter(HISTORY_MIN_TRACES, 100)).toContain('against_query_history');
  });

  it('gives a question first answered tonight no history, however many of its answers an earlier slice scored', async () => {
    // The votes up fill the first slice; the vote down comes in the next one, or in the same.
    expect(await voteDownAfter(0, HISTORY_MIN_TRACES, HISTORY_MIN_TRACES)).toEqual([]);
    expect(await voteDownAfter(0, 100, HISTORY_MIN_TRACES)).toEqual([]);
  });
});

/**
 * A conversation that asks the question twice: its second turn's correction points back at the
 * first answer, which the attribution moves it onto, and the first answer is voted down tonight.
 * Seven other answers scored 3/7 on average: below the history rule's bar, unless the first
 * answer's score, counted in the totals as the night found it, were subtracted as rescored. The
 * second turn sorts first, so with one trace a slice its slice rescores the first answer before the
 * first answer's own slice. Answers the rules the vote down was given and where the correction went.
 */
async function voteDownAfterCorrection(tracesPerSlice: number): Promise<{ rules: string[]; correctionFor: string | undefined }> {
  const p = await newProject();
  const t0 = Date.now() - 3_600_000;
  const first = trace({
    traceId: 'b-first',
    sessionId: 'chat',
    turnIndex: 0,
    createdAt: t0,
    query: QUESTION,
    answer: 'Opened items can be returned within 14 days.',
  });
  const old = Array.from({ length: 7 }, (_, i) => trace({ traceId: `old-${i}`, sessionId: `old-${i}`, query: QUESTION }));
  await sendTraffic(
    p,
    [...old, first],
    [
      ...old.map((t, i) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: i < 5 ? ('thumbs_up' as const) : ('thumbs_down' as const) })),
      { traceId: first.traceId, sessionId: 'chat', clientTs: t0 + 10_000, signalType: 'thumbs_up' as const },
    ],
  );
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  const again = trace({
    traceId: 'a-again',
    sessionId: 'chat',
    turnIndex: 1,
    createdAt: t0 + 60_000,
    query: QUESTION,
    answer: 'Refunds are paid as store credit.',
  });
  await sendTraffic(
    p,
    [again],
    [
      { traceId: first.traceId, sessionId: 'chat', clientTs: t0 + 70_000, signalType: 'thumbs_down' },
      {
        traceId: again.traceId,
        sessionId: 'chat',
        clientTs: t0 + 80_000,
        signalType: 'correction',
        detail: { text: 'Your first answer was wrong: opened items can be returned within 30 days, not 14.' },
      },
    ],
  );
  await runNightly(env, nightsAfterNow(1), { projects: [p.id], tracesPerSlice });
  const verdicts = await env.DB.prepare(
    `select e.signal_type, a.rules, a.attributed_trace_id from feedback_events e
     left join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id
     where e.project_id = ? and e.signal_type in ('thumbs_down', 'correction') and e.client_ts >= ?`,
  )
    .bind(p.id, t0 + 60_000)
    .all<{ signal_type: string; rules: string | null; attributed_trace_id: string | null }>();
  const of = (type: string) => verdicts.results.find((v) => v.signal_type === type);
  return {
    rules: (JSON.parse(of('thumbs_down')?.rules ?? '[]') as { rule: string }[]).map((r) => r.rule),
    correctionFor: of('correction')?.attributed_trace_id ?? undefined,
  };
}

describe('the history rule and an answer another slice rescored', () => {
  it('subtracts the answer’s score as the night found it, not as the earlier slice left it', async () => {
    const oneASlice = await voteDownAfterCorrection(1);
    const allInOne = await voteDownAfterCorrection(100);
    // The case at hand: the correction counts for the first answer in both.
    expect(oneASlice.correctionFor).toBe('b-first');
    expect(allInOne.correctionFor).toBe('b-first');
    expect(oneASlice.rules).toEqual(allInOne.rules);
    expect(oneASlice.rules).not.toContain('against_query_history');
  });
});

describe('the history rule and a slice run again', () => {
  it('subtracts the answer’s score as the night found it when its slice runs again after its writes landed but not its cursor', async () => {
    const p = await lastNightAndTonight(HISTORY_MIN_TRACES);
    // The invocation ends after the second assess slice (b-new's) wrote, before the run saved where it was:
    // each assess slice writes its answers' aggregates with one such statement.
    let assessWrites = 0;
    const db = endingBeforeSave(env.DB, (sql) => sql.startsWith('insert into trace_stats') && ++assessWrites === 2);
    const night = Date.now() + DAY;
    await expect(runNightly({ ...env, DB: db }, night, { projects: [p.id], tracesPerSlice: 1 })).rejects.toThrow(INVOCATION_ENDED);
    expect((await runNightly(env, night, { projects: [p.id], tracesPerSlice: 1 })).done).toBe(true);
    // As when nothing ended: five other answers voted up.
    expect(await voteDownRules(p.id)).toContain('against_query_history');
  });
});
