import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { utcDay } from '../../../shared/time.ts';
import { adminCall as admin, healthMetricsOf, newProject, sendTraffic, trace } from '../../test/fixtures.ts';
import { answeredItem, trainedModel } from '../../test/review-items.ts';
import { runNightly } from '../nightly.ts';

const DAY = 86_400_000;

it('snapshots loop health over the seven whole days before the night, the first of them included', async () => {
  const p = await newProject();
  // Half a minute into a night a few days ahead: one answer at noon on each of the eight days before it.
  const night = Date.parse(`${utcDay(Date.now() + 3 * DAY)}T00:00:30Z`);
  const noon = (daysBefore: number) => Date.parse(`${utcDay(night - daysBefore * DAY)}T12:00:00Z`);
  const traces = [1, 2, 3, 4, 5, 6, 7, 8].map((d) => trace({ createdAt: Math.min(noon(d), Date.now() - 1_000) }));
  await sendTraffic(p, traces);
  for (const [i, t] of traces.entries()) {
    await env.DB.prepare('update traces set created_at = ? where project_id = ? and trace_id = ?')
      .bind(noon(i + 1), p.id, t.traceId)
      .run();
  }
  await runNightly(env, night, { projects: [p.id] });
  expect((await healthMetricsOf(p.id, night)).traces).toBe(7);
});

it('counts a retraining period as met once, however many models were trained in it, by the job or by hand', async () => {
  const p = await newProject();
  const night = Date.parse(`${utcDay(Date.now())}T00:00:30Z`);
  // Weekly retraining (the default): four periods in four weeks. Two models by hand in the latest
  // week, one in the third, and one before the four weeks, which counts for none.
  for (const [version, daysBefore] of [
    ['a', 1],
    ['b', 2],
    ['c', 16],
    ['d', 29],
  ] as const) {
    await trainedModel(p.id, version, night - daysBefore * DAY, 40, 'rejected').run();
  }
  await runNightly(env, night, { projects: [p.id] });
  expect(await healthMetricsOf(p.id, night)).toMatchObject({ retrainsPlanned: 4, retrainsMet: 2 });
});

it("counts retraining periods by the nights models were trained on, whichever of its night's calls a run trained in", async () => {
  const p = await newProject();
  const night = Date.parse(`${utcDay(Date.now())}T00:00:30Z`);
  // Weekly, on schedule: tonight's run trained in its first call, last week's in a call 45 minutes
  // into its night (a slow night takes a few), and the two before in their first calls. Less than
  // seven days lie between tonight's model and last week's, yet they are a week's nights apart.
  for (const [version, at] of [
    ['a', night],
    ['b', night - 7 * DAY + 45 * 60_000],
    ['c', night - 14 * DAY],
    ['d', night - 21 * DAY],
  ] as const) {
    await trainedModel(p.id, version, at, 40, 'rejected').run();
  }
  await runNightly(env, night, { projects: [p.id] });
  expect(await healthMetricsOf(p.id, night)).toMatchObject({ retrainsPlanned: 4, retrainsMet: 4 });
});

it('plans one retraining a period when the schedule is longer than four weeks, met once a model was trained in it', async () => {
  const night = Date.parse(`${utcDay(Date.now())}T00:00:30Z`);
  // Every 30 days, and every 365 (the longest allowed): a model 29 nights back is in the period, one 31 back in the 30-day one's last.
  for (const [days, daysBefore, met] of [
    [30, 29, 1],
    [30, 31, 0],
    [365, 300, 1],
  ] as const) {
    const p = await newProject();
    expect((await admin(p, '/settings', { method: 'PUT', json: { retrainEveryDays: days } })).status).toBe(200);
    await trainedModel(p.id, 'a', night - daysBefore * DAY, 40, 'rejected').run();
    await runNightly(env, night, { projects: [p.id] });
    expect(await healthMetricsOf(p.id, night)).toMatchObject({ retrainsPlanned: 1, retrainsMet: met });
  }
});

it('records a missed night run after a later one with the model served that night, and none of the state it cannot know as of then', async () => {
  const p = await newProject();
  const tonight = Date.parse(`${utcDay(Date.now())}T00:00:30Z`);
  const missed = tonight - 5 * DAY;
  const evaluation = (ndcg5: number) => JSON.stringify({ candidate: { overall: { ndcg5 } } });
  await env.DB.batch([
    env.DB.prepare(
      `insert into models (project_id, version, created_at, data_read_at, trained_by, artifact, bytes, confirmed, compared_with, evaluation, decision, reasons)
       values (?1, 'old', ?2, ?2, 'retrain', '{}', 2, 40, null, ?3, 'promoted', '[]'), (?1, 'new', ?4, ?4, 'retrain', '{}', 2, 40, 'old', ?5, 'promoted', '[]')`,
    ).bind(p.id, tonight - 10 * DAY, evaluation(0.5), tonight - DAY, evaluation(0.7)),
    env.DB.prepare(
      `insert into model_rollouts (project_id, seq, at, action, version, reason) values (?1, 1, ?2, 'promote', 'old', ''), (?1, 2, ?3, 'promote', 'new', '')`,
    ).bind(p.id, tonight - 10 * DAY, tonight - DAY),
    // A confirmed example and an item waiting, both from after the missed night.
    env.DB.prepare(
      `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
         evidence, trace_count, weight, expected_value, status, verdict, mined_at, answered_at, updated_at)
       values (?1, 'item-1', 'refund', 'refund?', 'c1', 'refunds.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 0.6, 0.6, 'answered', 'relevant', ?2, ?2, ?2),
         (?1, 'item-2', 'refund', 'refund?', 'c2', 'refunds.md', 'text', 2, 0.5, 'negative', 'unclear', '', '[]', 1, 0.6, 0.6, 'pending', null, ?2, null, ?2)`,
    ).bind(p.id, tonight - 2 * DAY),
  ]);
  await runNightly(env, tonight, { projects: [p.id] });
  const later = await healthMetricsOf(p.id, tonight);
  expect(later).toMatchObject({ servedModel: 'new', evalNdcg5: 0.7, reviewQueue: 1, confirmedExamples: 1 });
  // The budget changed since: the missed night's is not known either.
  expect((await admin(p, '/settings', { method: 'PUT', json: { reviewMinutesPerWeek: 60 } })).status).toBe(200);
  // The night five days ago, missed by the cron, caught up now.
  const run = await runNightly(env, missed, { projects: [p.id], wallClock: Date.now() });
  const { body } = await admin<{ snapshots: { day: string; servedModel: string | null; caughtUp?: boolean; metrics: Record<string, number | null> }[] }>(
    p,
    '/health',
  );
  expect(body.snapshots.find((s) => s.day === utcDay(missed))).toMatchObject({
    servedModel: 'old',
    caughtUp: true,
    metrics: { evalNdcg5: 0.5, reviewQueue: null, confirmedExamples: null, loopClosureRate: null, reviewBudgetPerWeek: null, retrainsPlanned: null },
  });
  expect(body.snapshots.find((s) => s.day === utcDay(tonight))!.caughtUp).toBeUndefined();
  expect(run.runs[0]!.stages.find((s) => s.name === 'health')!.note).toMatch(/reviewQueue, confirmedExamples, loopClosureRate, reviewBudgetPerWeek/);
  // The later night's snapshot is as it was.
  expect(await healthMetricsOf(p.id, tonight)).toEqual(later);
});

it('records a night run late, with no later night done yet, with the queue as it is when it runs', async () => {
  const p = await newProject();
  // Last night's run, held up until now: an item mined since waits in the queue.
  const lastNight = Date.parse(`${utcDay(Date.now() - DAY)}T00:00:30Z`);
  await env.DB.prepare(
    `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
       evidence, trace_count, weight, expected_value, status, verdict, mined_at, answered_at, updated_at)
     values (?1, 'item-1', 'refund', 'refund?', 'c1', 'refunds.md', 'text', 1, 0.5, 'negative', 'unclear', '', '[]', 1, 0.6, 0.6, 'pending', null, ?2, null, ?2)`,
  )
    .bind(p.id, Date.now() - 60_000)
    .run();
  await runNightly(env, lastNight, { projects: [p.id], wallClock: Date.now() });
  const { body } = await admin<{ snapshots: { day: string; caughtUp?: boolean; metrics: Record<string, number | null> }[] }>(p, '/health');
  const snapshot = body.snapshots.find((s) => s.day === utcDay(lastNight))!;
  expect(snapshot.caughtUp).toBeUndefined();
  expect(snapshot.metrics.reviewQueue).toBe(1);
});

it("counts the week's reviews, and the confirmed examples of any age: an unclear verdict confirms none", async () => {
  const p = await newProject();
  const now = Date.now();
  await env.DB.batch([
    answeredItem(p.id, 1, 'relevant', now - DAY),
    answeredItem(p.id, 2, 'not_relevant', now - 7 * DAY - 12 * 3_600_000),
    answeredItem(p.id, 3, 'unclear', now - 2 * DAY),
  ]);
  await runNightly(env, now + 1_000, { projects: [p.id] });
  const { body } = await admin<{ snapshots: { day: string; metrics: Record<string, number | null> }[] }>(p, '/health');
  const { metrics } = body.snapshots.find((s) => s.day === utcDay(now + 1_000))!;
  expect({ reviewedLastWeek: metrics.reviewedLastWeek, confirmedExamples: metrics.confirmedExamples }).toEqual({ reviewedLastWeek: 2, confirmedExamples: 2 });
});

it('counts as trusted coverage the answers with a signal the noise filter trusted, not every answer with a signal', async () => {
  const p = await newProject();
  const [liked, rushed] = [trace({ sessionId: 'sa', createdAt: Date.now() - 60_000 }), trace({ sessionId: 'sb', createdAt: Date.now() - 60_000 })];
  // A downvote 0.1 s after the answer showed: too fast to have read it, so not trusted.
  await sendTraffic(
    p,
    [liked, rushed],
    [
      { traceId: liked.traceId, sessionId: 'sa', signalType: 'thumbs_up' },
      { traceId: rushed.traceId, sessionId: 'sb', signalType: 'thumbs_down', shownMs: 100 },
    ],
  );
  const night = Date.now() + 1_000;
  await runNightly(env, night, { projects: [p.id] });
  const { body } = await admin<{ snapshots: { day: string; metrics: Record<string, number | null> }[] }>(p, '/health');
  const { metrics } = body.snapshots.find((s) => s.day === utcDay(night))!;
  expect({ coverage: metrics.coverage, trustedCoverage: metrics.trustedCoverage }).toEqual({ coverage: 1, trustedCoverage: 0.5 });
});
