/** A correction is listed by the night whose window it arrived in, dated no later than its arrival. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { Correction } from '../../shared/admin-api/documents.ts';
import { DAY_MS } from '../../shared/time.ts';
import { correctionsListed } from '../test/corrections.ts';
import { lastWindowEnd, newProject, nightsAfterNow, sendTraffic as send, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

it('dates a correction from a browser whose clock runs ahead no later than its arrival', async () => {
  const p = await newProject();
  const t = trace({ sessionId: 'ahead', createdAt: Date.now() - 60_000 });
  const sent = Date.now();
  await send(
    p,
    [t],
    [{ traceId: t.traceId, sessionId: 'ahead', signalType: 'correction', clientTs: sent + 3 * DAY_MS, detail: { text: 'Refunds take 30 days now' } }],
  );
  const arrived = Date.now();
  await runNightly(env, arrived + 1_000, { projects: [p.id] });
  const [listed] = (await correctionsListed(p)) as [Correction];
  expect(listed.createdAt).toBeGreaterThanOrEqual(sent);
  expect(listed.createdAt).toBeLessThanOrEqual(arrived);
});

it('leaves a correction that arrived after the night’s window, on an answer the night looks at, to the next night', async () => {
  const p = await newProject();
  const t = trace({ sessionId: 'late', createdAt: Date.now() - 60_000 });
  await send(p, [t], [{ traceId: t.traceId, sessionId: 'late', signalType: 'correction', detail: { text: 'Refunds take 30 days now' } }]);
  // The correction lands after the window the night reads (the window ends at the collector's clock): it has no verdict yet.
  const moveCorrection = (receivedAt: number) =>
    env.DB.prepare(`update feedback_events set received_at = ? where project_id = ? and signal_type = 'correction'`).bind(receivedAt, p.id).run();
  await moveCorrection(Date.now() + 60_000);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  expect(await correctionsListed(p)).toEqual([]);
  // Just after that window, in the next night's.
  await moveCorrection((await lastWindowEnd(p.id)) + 1);
  await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
  expect((await correctionsListed(p)).map((c) => c.traceId)).toEqual([t.traceId]);
});
