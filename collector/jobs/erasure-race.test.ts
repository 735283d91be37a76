import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { queryKey } from '../../shared/terms.ts';
import { eraseUser } from '../storage/erasure.ts';
import { adminCall, newProject, rowsNaming, sendTraffic, trace } from '../test/fixtures.ts';
import { hookedD1, once } from '../test/hooked-d1.ts';
import { signedInMidConversation } from '../test/sessions.ts';
import { runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const chunks = [
  { chunkId: 'good', sourceDocId: 'guide.md', score: 0.9, rank: 1, text: 'Opened items can be refunded within 14 days.' },
  { chunkId: 'bad', sourceDocId: 'other.md', score: 0.8, rank: 2, text: 'Shipping takes five days.' },
];

/** A clearly bad answer of `who`'s, flagging the wrong source. */
function badAnswer(who: string, traceId: string, query: string, sessionId = `s-${traceId}`) {
  const t = trace({ traceId, userIdHash: who, sessionId, query, retrievedChunks: chunks, rerankedChunks: undefined, createdAt: Date.now() - 60_000 });
  const says = [
    { traceId, sessionId, signalType: 'thumbs_down' as const },
    { traceId, sessionId, signalType: 'wrong_source' as const, detail: { chunkId: 'bad' } },
  ];
  return { t, says };
}

/**
 * Two users' clearly bad answers, each flagging the wrong source: each asks a question no one else
 * asks, and both ask one more, so that each has review items of their own and they share some.
 */
async function twoUsers(p: Project) {
  // Fixed ids, the erased user's first in key order: a slice meets their rows before the other user's.
  let n = 0;
  const answer = (who: string, query: string) => badAnswer(who, `${who}-${++n}`, query, `s-${who}`);
  const own = answer('u-gone', 'Can zebras renew a platinum membership?');
  const shared = answer('u-gone', 'Can opened items be refunded?');
  const sharedToo = answer('u-stays', 'Can opened items be refunded?');
  const theirs = answer('u-stays', 'Why do zebras have stripes?');
  await sendTraffic(p, [own.t, shared.t, sharedToo.t, theirs.t], [...own.says, ...shared.says, ...sharedToo.says, ...theirs.says]);
  return {
    gone: {
      userIdHash: 'u-gone',
      traceIds: [own.t.traceId, shared.t.traceId],
      needles: ['u-gone', 's-u-gone', own.t.traceId, shared.t.traceId, queryKey(own.t.query)],
    },
    stays: theirs.t.traceId,
  };
}

/**
 * Runs tonight's job to its end, erasing the user through the admin API just before the first batch
 * `writes` matches, once, then running that batch: the erasure lands between a slice's reads and its
 * writes. Answers the values that batch's statements were bound to.
 */
async function runErasingBefore(p: Project, userIdHash: string, writes: RegExp) {
  let raced: (readonly unknown[])[] | undefined;
  const db = hookedD1(env.DB, async ({ sql, params, batch }, run) => {
    if (batch && !raced && sql.some((s) => writes.test(s))) {
      raced = [...params];
      expect((await adminCall(p, `/users/${userIdHash}`, { method: 'DELETE' })).status).toBe(200);
    }
    return run();
  });
  const summary = await runNightly({ ...env, DB: db }, Date.now() + 1_000, { projects: [p.id] });
  expect(summary.done).toBe(true);
  expect(raced).toBeDefined();
  return raced!;
}

/** The other user's results: their trace's aggregate, and a review item their trace raises. */
async function resultsOf(projectId: string, traceId: string) {
  const stats = await env.DB.prepare('select trusted_signals, weighted_score from trace_stats where project_id = ? and trace_id = ?')
    .bind(projectId, traceId)
    .first<{ trusted_signals: number; weighted_score: number }>();
  const { results: items } = await env.DB.prepare(
    `select i.chunk_id, i.trace_count from review_item_traces r join review_items i on i.project_id = r.project_id and i.item_id = r.item_id
     where r.project_id = ? and r.trace_id = ? order by i.chunk_id`,
  )
    .bind(projectId, traceId)
    .all<{ chunk_id: string; trace_count: number }>();
  return { stats, items };
}

describe('erasing a user while the nightly job runs', () => {
  for (const [stage, writes] of [
    ['assess', /^\s*insert into (event_assessments|trace_stats)\b/],
    ['mine', /^\s*insert into (review_item_traces|review_items)\b/],
  ] as const) {
    it(`writes nothing of the user back when erased between the ${stage} stage's reads and its writes, and keeps the other user's results`, async () => {
      const p = await newProject();
      const { gone, stays } = await twoUsers(p);
      const raced = await runErasingBefore(p, gone.userIdHash, writes);
      // The race happened: the slice had read the user's traces and was about to write rows for them.
      const written = JSON.stringify(raced);
      for (const id of gone.traceIds) expect(written).toContain(id);

      await expect(rowsNaming(p.id, gone.needles)).resolves.toEqual([]);
      const { stats, items } = await resultsOf(p.id, stays);
      expect(stats?.trusted_signals).toBeGreaterThan(0);
      expect(stats?.weighted_score).toBeLessThan(0);
      // Their own question's answer, mined as bad on a flagged source.
      expect(items.find((i) => i.chunk_id === 'bad')).toEqual({ chunk_id: 'bad', trace_count: 1 });
      // The question both asked keeps its items, now the other user's alone, and no row is left without its item.
      const shared = await env.DB.prepare('select query, chunk_id, trace_count from review_items where project_id = ? and query_key = ? order by chunk_id')
        .bind(p.id, queryKey('Can opened items be refunded?'))
        .all();
      expect(shared.results.map((r) => r.chunk_id)).toEqual(['bad', 'good']);
      const orphans = await env.DB.prepare(
        'select count(*) as n from review_item_traces r where project_id = ? and not exists (select 1 from review_items i where i.project_id = r.project_id and i.item_id = r.item_id)',
      )
        .bind(p.id)
        .first();
      expect(orphans).toEqual({ n: 0 });
    });
  }
});

describe('a run of the job while a user is erased', () => {
  it("takes the user's signal out of another's answer the run attributed it to after the erasure began", async () => {
    const p = await newProject();
    // A turn before signing in, then the user's, whose correction is about the first answer.
    const { first, theirs, correction } = signedInMidConversation();
    await sendTraffic(p, [first, theirs], [correction]);
    // The erasure's first write waits for a whole run, which attributes the correction to the first turn.
    let ran = false;
    const night = once(async () => {
      expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);
      const moved = await env.DB.prepare('select count(*) as n from event_assessments where project_id = ? and attributed_trace_id = ?')
        .bind(p.id, first.traceId)
        .first<{ n: number }>();
      expect(moved).toEqual({ n: 1 });
      ran = true;
    });
    const db = hookedD1(env.DB, async ({ batch }, run) => {
      if (batch) await night();
      return run();
    });
    await eraseUser(db, p.id, 'u-gone');
    expect(ran).toBe(true);
    const stats = await env.DB.prepare('select live_signals, explicit_signals from trace_stats where project_id = ? and trace_id = ?')
      .bind(p.id, first.traceId)
      .first();
    expect(stats).toEqual({ live_signals: 0, explicit_signals: 0 });
    await expect(rowsNaming(p.id, ['u-gone', theirs.traceId])).resolves.toEqual([]);
  });
});

/** The same question typed two ways by two users, mined by a run: the erased user's trace is the one its items show. */
async function oneQuestionTypedTwoWays(p: Project) {
  const stays = badAnswer('u-stays', 'a-stays', 'Can opened items be refunded?');
  const gone = badAnswer('u-gone', 'z-gone', 'can OPENED items be refunded');
  await sendTraffic(p, [stays.t, gone.t], [...stays.says, ...gone.says]);
  expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);
  return { stays: stays.t, gone: gone.t };
}

describe('an erasure cut short', () => {
  it("leaves no query as the user typed it when the write of the items' counts after its transaction fails", async () => {
    const p = await newProject();
    const { stays, gone } = await oneQuestionTypedTwoWays(p);
    const queries = async () =>
      (await env.DB.prepare('select query from review_items where project_id = ? order by item_id').bind(p.id).all<{ query: string }>()).results.map(
        (r) => r.query,
      );
    expect(await queries()).toContain(gone.query);

    let batches = 0;
    const db = hookedD1(env.DB, async ({ batch }, run) => {
      if (batch && ++batches === 2) throw new Error('the connection dropped');
      return run();
    });
    await expect(eraseUser(db, p.id, 'u-gone')).rejects.toThrow('the connection dropped');
    const left = await queries();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((q) => q === stays.query)).toBe(true);
  });

  it("forgets the scores a run in progress kept as found of the user's answers and of others under the user's questions", async () => {
    const p = await newProject();
    const { gone, stays } = await twoUsers(p);
    expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id], maxSlices: 1 })).done).toBe(false);
    const kept = [
      [gone.traceIds[0], 'whatever it was asked as'],
      ['another-answer', queryKey('Can zebras renew a platinum membership?')],
      [stays, queryKey('Why do zebras have stripes?')],
    ];
    for (const [traceId, key] of kept)
      await env.DB.prepare(
        `insert into loop_trace_history (project_id, night, trace_id, query_key, weighted_score) select project_id, night, ?2, ?3, 0.5 from loop_runs where project_id = ?1`,
      )
        .bind(p.id, traceId, key)
        .run();
    expect((await adminCall(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    const { results } = await env.DB.prepare('select trace_id from loop_trace_history where project_id = ?').bind(p.id).all<{ trace_id: string }>();
    // The other user's answer to their own question keeps its score as found.
    expect(results.map((r) => r.trace_id)).toEqual([stays]);
  });

  it('shows the question by its key when no other trace of an item is stored any more', async () => {
    const p = await newProject();
    const { stays, gone } = await oneQuestionTypedTwoWays(p);
    // Retention purged the other user's trace; its rows in the items stay.
    await env.DB.prepare('delete from traces where project_id = ? and trace_id = ?').bind(p.id, stays.traceId).run();
    expect((await adminCall(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    const { results } = await env.DB.prepare('select query from review_items where project_id = ?').bind(p.id).all<{ query: string }>();
    expect(results.length).toBeGreaterThan(0);
    expect(results.map((r) => r.query)).toEqual(results.map(() => queryKey(gone.query)));
  });
});
