/** A run's window ends at its moment, that millisecond included: what arrived then is this run's. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { DAY_MS } from '../../shared/time.ts';
import { arrivedAt, newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const statsOf = (projectId: string, traceId: string) =>
  env.DB.prepare('select trusted_signals as trusted from trace_stats where project_id = ? and trace_id = ?')
    .bind(projectId, traceId)
    .first<{ trusted: number }>();

it('takes an answer that arrived at the last millisecond of the window', async () => {
  const p = await newProject();
  // A night run for a moment already past, so its window ends at that moment.
  const at = Date.now() - 60_000;
  const t = trace({ createdAt: at - 60_000 });
  await sendTraffic(p, [t]);
  await arrivedAt(p.id, [t.traceId], at);
  await runNightly(env, at, { projects: [p.id] });
  // No votes, so none trusted: the row is there because the run took the answer.
  expect(await statsOf(p.id, t.traceId)).toEqual({ trusted: 0 });
});

it('takes a vote that arrived at the last millisecond of the window on an answer of an earlier night', async () => {
  const p = await newProject();
  const at = Date.now() - 60_000;
  const t = trace({ createdAt: at - DAY_MS - 60_000 });
  await sendTraffic(p, [t]);
  await arrivedAt(p.id, [t.traceId], at - DAY_MS - 30_000);
  await runNightly(env, at - DAY_MS, { projects: [p.id] });
  await sendTraffic(p, [], [{ traceId: t.traceId, signalType: 'thumbs_down' }]);
  await arrivedAt(p.id, [t.traceId], at, ['feedback_events']);
  await runNightly(env, at, { projects: [p.id] });
  expect(await statsOf(p.id, t.traceId)).toEqual({ trusted: 1 });
});
