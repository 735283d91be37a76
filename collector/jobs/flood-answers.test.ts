import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const MINUTE = 60_000;

/**
 * The flooding rule counts the answers a source said failed, not its signals: a careful reader who
 * votes an answer down, flags its wrong sources and writes a correction sends five negative signals
 * about one answer, and two such answers in five minutes are not a flood. Thumbs-downs on twelve
 * answers within minutes still are.
 */
async function floodedVotes(
  answers: number,
  perAnswer: (traceId: string, at: number) => Record<string, unknown>[],
  // When the source's answers were dated and its first ones voted on, how far apart its answers' votes came, what the other readers sent.
  { answeredAgo = 10 * MINUTE, votedAgo = 5 * MINUTE, apart = 2 * MINUTE, readers: readerSignal = 'thumbs_down' as 'thumbs_down' | 'thumbs_up' } = {},
) {
  const p = await newProject();
  const now = Date.now();
  // Other readers' downvotes, so that the source's share of the project's is below what floods alone (or their upvotes, which count for no share).
  const readers = Array.from({ length: 40 }, (_, i) => trace({ sessionId: `reader-${i % 8}`, createdAt: now - 10 * MINUTE }));
  const own = Array.from({ length: answers }, () => trace({ sessionId: 'careful', userIdHash: 'careful-user', createdAt: now - answeredAgo }));
  await sendTraffic(p, readers);
  await sendTraffic(p, own);
  await sendTraffic(p, [], [
    ...readers.map((t) => ({ traceId: t.traceId, sessionId: t.sessionId!, signalType: readerSignal, clientTs: now - 5 * MINUTE })),
    ...own.flatMap((t, i) => perAnswer(t.traceId, now - votedAgo + i * apart).map((e) => ({ traceId: t.traceId, sessionId: 'careful', ...e }))),
  ] as Parameters<typeof sendTraffic>[2]);
  const summary = await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  expect(summary.runs[0]!.error).toBeUndefined();
  const row = await env.DB.prepare(
    `select count(*) as n from event_assessments a join feedback_events e on e.project_id = a.project_id and e.event_id = a.event_id
     where a.project_id = ? and e.session_id = 'careful' and a.rules like '%"flooding"%'`,
  )
    .bind(p.id)
    .first<{ n: number }>();
  return row!.n;
}

it('trusts a reader who says of two answers in a few minutes everything that was wrong with them', async () => {
  const everything = (_: string, at: number) => [
    { signalType: 'thumbs_down', clientTs: at },
    { signalType: 'wrong_source', detail: { chunkId: 'c1' }, clientTs: at + 10_000 },
    { signalType: 'wrong_source', detail: { chunkId: 'c2' }, clientTs: at + 20_000 },
    { signalType: 'wrong_source', detail: { chunkId: 'c3' }, clientTs: at + 30_000 },
    { signalType: 'correction', detail: { text: 'It is 30 days for opened items, see the returns guide' }, clientTs: at + 60_000 },
  ];
  expect(await floodedVotes(2, everything)).toBe(0);
});

it('still finds a source voting twelve answers down within minutes', async () => {
  expect(await floodedVotes(12, (_, at) => [{ signalType: 'thumbs_down', clientTs: at - 100_000 }])).toBe(12);
});

// Ten answers an hour apart from a fifth of the project's downvoted answers: under 20 an hour and a quarter.
const slowly = { answeredAgo: 65 * MINUTE, votedAgo: 60 * MINUTE, apart: 6 * MINUTE };

it('trusts a reader who says of ten answers in an hour, three things each, that they failed: ten answers an hour, not thirty signals', async () => {
  // By session, user and address alike.
  const threeThings = (_: string, at: number) => [
    { signalType: 'thumbs_down', clientTs: at },
    { signalType: 'wrong_source', detail: { chunkId: 'c1' }, clientTs: at + 10_000 },
    { signalType: 'correction', detail: { text: 'It is 30 days for opened items, see the returns guide' }, clientTs: at + 30_000 },
  ];
  expect(await floodedVotes(10, threeThings, slowly)).toBe(0);
});

it("finds a source that said a quarter of the project's answers failed, however many answers others liked", async () => {
  expect(await floodedVotes(10, (_, at) => [{ signalType: 'thumbs_down', clientTs: at }], { ...slowly, readers: 'thumbs_up' })).toBe(10);
});

it('counts no three-star rating as a negative: twelve in minutes and a thumbs-down are not a flood', async () => {
  let first = true;
  const rated = (_: string, at: number) => {
    const vote = first ? { signalType: 'thumbs_down', clientTs: at } : { signalType: 'rating', detail: { stars: 3 }, clientTs: at };
    first = false;
    return [vote];
  };
  expect(await floodedVotes(13, rated)).toBe(0);
});

it("allows answers dated by a backend's clock up to 5 minutes ahead when it bounds a source's span", async () => {
  // Ten votes over 33 minutes (18 an hour), the answers dated 28 minutes before the last arrived: 33 minutes allowed.
  expect(
    await floodedVotes(10, (_, at) => [{ signalType: 'thumbs_down', clientTs: at }], {
      answeredAgo: 28 * MINUTE,
      votedAgo: 33 * MINUTE,
      apart: (33 * MINUTE) / 9,
    }),
  ).toBe(0);
});
