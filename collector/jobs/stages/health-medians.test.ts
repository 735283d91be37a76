/** Loop health's medians: from a user's action to its storage over the run's window, from mining to review over the week. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { DAY_MS } from '../../../shared/time.ts';
import { healthMetricsOf, lastWindowEnd, newProject, sendTraffic, trace } from '../../test/fixtures.ts';
import { answeredItem } from '../../test/review-items.ts';
import { runNightly } from '../nightly.ts';

const HOUR = 3_600_000;

/** One vote per latency, each on an answer of its own, stored at `receivedAt` that long after the user gave it. */
async function votes(p: Awaited<ReturnType<typeof newProject>>, receivedAt: number, latencies: number[]) {
  const answers = latencies.map(() => trace({ sessionId: 's-votes', createdAt: Date.now() - 60_000 }));
  await sendTraffic(
    p,
    answers,
    answers.map((a) => ({ traceId: a.traceId, sessionId: 's-votes', signalType: 'thumbs_up' as const })),
  );
  for (const [i, a] of answers.entries()) {
    await env.DB.prepare('update feedback_events set received_at = ?, client_ts = ? where project_id = ? and trace_id = ?')
      .bind(receivedAt, receivedAt - latencies[i]!, p.id, a.traceId)
      .run();
  }
}

/** Where the project's last run's window ended: what arrives after it is the next run's. */
it("takes the median latency from a user's action to its storage over the events of the run's window alone", async () => {
  const p = await newProject();
  const first = Date.now() + 1_000;
  await votes(p, Date.now() - 30_000, [1_000, 2_000, 3_000]);
  await runNightly(env, first, { projects: [p.id] });
  expect((await healthMetricsOf(p.id, first)).eventToStorageMs).toBe(2_000);
  // The next night's window: four events, the upper middle of them, none of the night before's.
  const next = first + DAY_MS;
  await votes(p, (await lastWindowEnd(p.id)) + 1, [10_000, 20_000, 30_000, 40_000]);
  await runNightly(env, next, { projects: [p.id] });
  expect((await healthMetricsOf(p.id, next)).eventToStorageMs).toBe(30_000);
});

it('takes the median time from mining to review over the items answered in the seven days up to the night alone', async () => {
  const p = await newProject();
  const night = Date.now() + 60_000;
  // Four answered this week, 1, 2, 3 and 10 hours after mining; two answered 8 days ago, sooner.
  const items: [number, number][] = [
    [night - DAY_MS, HOUR],
    [night - DAY_MS, 2 * HOUR],
    [night - 2 * DAY_MS, 3 * HOUR],
    [night - 3 * DAY_MS, 10 * HOUR],
    [night - 8 * DAY_MS, HOUR / 4],
    [night - 8 * DAY_MS, HOUR / 2],
    // And two answered after the night, as a missed night run afterwards finds them.
    [night + DAY_MS, 20 * HOUR],
    [night + DAY_MS, 30 * HOUR],
  ];
  for (const [i, [answeredAt, waited]] of items.entries()) {
    await answeredItem(p.id, i, 'relevant', answeredAt).run();
    await env.DB.prepare('update review_items set mined_at = ? where project_id = ? and item_id = ?')
      .bind(answeredAt - waited, p.id, `item-${i}`)
      .run();
  }
  await runNightly(env, night, { projects: [p.id] });
  expect((await healthMetricsOf(p.id, night)).storageToReviewMs).toBe(3 * HOUR);
});
