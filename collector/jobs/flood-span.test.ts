import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const HOUR = 3_600_000;

/**
 * A project whose eight readers each voted five answers down, so that a source of twelve sends less
 * than the share the flooding rule counts alone (12 of 52), and the session `flooder`'s twelve
 * answers, logged `answeredAgo` before its downvotes arrive, which its browser dates an hour apart.
 */
async function projectWithFlooder(answeredAgo: (i: number) => number) {
  const p = await newProject();
  const now = Date.now();
  const readers = Array.from({ length: 40 }, (_, i) => trace({ sessionId: `reader-${i % 8}`, createdAt: now - 60_000 }));
  const flooded = Array.from({ length: 12 }, (_, i) => trace({ sessionId: 'flooder', createdAt: now - answeredAgo(i) }));
  await sendTraffic(p, readers);
  await sendTraffic(p, flooded);
  await sendTraffic(
    p,
    [],
    [
      ...readers.map((t) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: 'thumbs_down' as const, clientTs: now - 30_000 })),
      ...flooded.map((t, i) => ({ traceId: t.traceId, sessionId: 'flooder', signalType: 'thumbs_down' as const, clientTs: now - (12 - i) * HOUR })),
    ],
  );
  const summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  expect(summary.runs[0]!.error).toBeUndefined();
  const prepare = summary.runs[0]!.stages.find((s) => s.name === 'prepare')!;
  const floodRuled = await env.DB.prepare(
    `select count(*) as n from event_assessments a join feedback_events e on e.project_id = a.project_id and e.event_id = a.event_id
     where a.project_id = ? and e.session_id = 'flooder' and a.rules like '%"flooding"%'`,
  )
    .bind(p.id)
    .first<{ n: number }>();
  return { floodingSources: prepare.counts.floodingSources ?? 0, floodedVotes: floodRuled!.n };
}

it('finds a flood dated hours apart by its browser though its answers were logged a minute before it arrived', async () => {
  // Its session and its address.
  expect(await projectWithFlooder(() => 60_000)).toEqual({ floodingSources: 2, floodedVotes: 12 });
});

it('trusts a backlog an offline browser sends at once, its answers logged over the hours its votes say', async () => {
  expect(await projectWithFlooder((i) => (12 - i) * HOUR + 60_000)).toEqual({ floodingSources: 0, floodedVotes: 0 });
});

it("goes by the browser's clock where the answers are dated after their votes arrived (a backend's clock ahead, a simulation's)", async () => {
  expect(await projectWithFlooder(() => -HOUR)).toEqual({ floodingSources: 0, floodedVotes: 0 });
});
