import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { utcDay } from '../../../shared/time.ts';
import { newProject, sendTraffic, trace } from '../../test/fixtures.ts';
import { trainedModel } from '../../test/review-items.ts';
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
  const snapshot = await env.DB.prepare('select metrics from health_snapshots where project_id = ? and day = ?')
    .bind(p.id, utcDay(night))
    .first<{ metrics: string }>();
  expect(JSON.parse(snapshot!.metrics).traces).toBe(7);
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
  const snapshot = await env.DB.prepare('select metrics from health_snapshots where project_id = ? and day = ?')
    .bind(p.id, utcDay(night))
    .first<{ metrics: string }>();
  expect(JSON.parse(snapshot!.metrics)).toMatchObject({ retrainsPlanned: 4, retrainsMet: 2 });
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
  const snapshot = await env.DB.prepare('select metrics from health_snapshots where project_id = ? and day = ?')
    .bind(p.id, utcDay(night))
    .first<{ metrics: string }>();
  expect(JSON.parse(snapshot!.metrics)).toMatchObject({ retrainsPlanned: 4, retrainsMet: 4 });
});
