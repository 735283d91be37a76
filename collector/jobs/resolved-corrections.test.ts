/** A resolved correction stays as it was resolved: later nights re-route and withdraw open ones only. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { Correction } from '../../shared/admin-api/documents.ts';
import { correctionsListed } from '../test/corrections.ts';
import { adminCall as admin, newProject, nightsAfterNow, sendTraffic as send, trace } from '../test/fixtures.ts';
import { signedInMidConversation } from '../test/sessions.ts';
import { runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const resolve = async (p: Project, eventId: string) => (await admin(p, `/corrections/${eventId}/resolve`, { method: 'POST', json: { note: 'fixed' } })).status;

it('keeps a resolved correction under the answer it was resolved under when a later night moves it onto an earlier one', async () => {
  const p = await newProject();
  const { sessionId, first, theirs, correction } = signedInMidConversation();
  // The earlier turn is logged late: tonight the correction is about the answer it was sent on.
  await send(p, [theirs], [correction]);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  const [{ eventId }] = (await correctionsListed(p, 'open')) as [Correction];
  expect(await resolve(p, eventId)).toBe(200);
  // The next night has the earlier turn, and would move an open one onto it.
  await send(p, [first], [{ traceId: theirs.traceId, sessionId, signalType: 'citation_click', detail: { chunkId: 'good' } }]);
  await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
  expect((await correctionsListed(p, 'resolved')).map(({ traceId, sentUnder, sourceDocId }) => ({ traceId, sentUnder, sourceDocId }))).toEqual([
    { traceId: theirs.traceId, sentUnder: null, sourceDocId: 'guide.md' },
  ]);
});

it('keeps a resolved correction when its sender is found flooding on a later night', async () => {
  const p = await newProject();
  const answers = Array.from({ length: 15 }, () => trace({ sessionId: 'flooder', createdAt: Date.now() - 60_000 }));
  const downvote = (i: number) => ({
    traceId: answers[i]!.traceId,
    sessionId: 'flooder',
    signalType: 'thumbs_down' as const,
    clientTs: Date.now() - 50_000 + i * 1_000,
  });
  await send(p, answers);
  // Eight downvotes and a correction: not yet a flood, so the correction reaches the inbox, and an owner resolves it.
  const correction = {
    traceId: answers[8]!.traceId,
    sessionId: 'flooder',
    signalType: 'correction' as const,
    detail: { text: 'Refunds take 30 days, not 14.' },
  };
  await send(p, [], [...[0, 1, 2, 3, 4, 5, 6, 7].map(downvote), correction]);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  const [{ eventId }] = (await correctionsListed(p, 'open')) as [Correction];
  expect(await resolve(p, eventId)).toBe(200);
  // Six more the next night make it a flood: what it sent the night before is distrusted, but what was resolved stays.
  await send(p, [], [9, 10, 11, 12, 13, 14].map(downvote));
  const summary = await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
  expect(summary.runs[0]!.stages.find((s) => s.name === 'prepare')!.counts.floodingSources).toBeGreaterThan(0);
  expect((await correctionsListed(p, 'resolved')).map((c) => c.eventId)).toEqual([eventId]);
});
