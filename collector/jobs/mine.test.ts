import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/hex.ts';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { queryKey, traceQueryKey } from '../../shared/terms.ts';
import { adminCall as admin, type event, newProject, nightsAfterNow, sendTraffic as send, trace } from '../test/fixtures.ts';
import { hookedD1 } from '../test/hooked-d1.ts';
import { runNightly } from './nightly.ts';

const chunks = [
  { chunkId: 'shipping-1', sourceDocId: 'shipping.md', score: 0.9, rank: 1, text: 'Shipping to Canada takes 5 to 8 business days.' },
  { chunkId: 'credit-1', sourceDocId: 'credit.md', score: 0.8, rank: 2, text: 'Store credit is issued for opened items and never expires.' },
  { chunkId: 'refund-1', sourceDocId: 'refunds.md', score: 0.7, rank: 3, text: 'Opened items can be refunded within 14 days of delivery.' },
];

const start = Date.UTC(2026, 10, 2, 10);
/** Answers to the same question (typed as `typed` says, else alike), so that all raise the same items. */
const traces = (users: readonly string[], typed: Record<string, string> = {}): TraceInput[] =>
  users.map((user, i) =>
    trace({
      traceId: `t-${user}`,
      userIdHash: user,
      sessionId: `s-${user}`,
      query: typed[user] ?? 'refund for opened items?',
      retrievedChunks: chunks,
      rerankedChunks: undefined,
      createdAt: start + i * 60_000,
    }),
  );

type Signal = Parameters<typeof event>[0];
const signal = (user: string, n: number, signalType: Signal['signalType'], detail?: Record<string, unknown>): Signal =>
  ({
    eventId: `e-${user}-${n}`,
    traceId: `t-${user}`,
    sessionId: `s-${user}`,
    signalType,
    clientTs: start + 120_000 + n * 30_000,
    ...(detail && { detail }),
  }) as Signal;

/** Every item's aggregates and every (item, trace) contribution of one project, without times. */
async function mined(projectId: string) {
  const items = await env.DB.prepare(
    `select item_id, query, chunk_id, rank, score, candidate, guess, guess_why, evidence, trace_count, weight, expected_value
     from review_items where project_id = ? order by item_id`,
  )
    .bind(projectId)
    .all();
  const traces = await env.DB.prepare(
    'select item_id, trace_id, candidate, weight, evidence, rank, score, guess, guess_why from review_item_traces where project_id = ? order by item_id, trace_id',
  )
    .bind(projectId)
    .all();
  return { items: items.results, traces: traces.results };
}

describe('review items recomputed from the traces behind them', () => {
  it('replaces what a trace mined again with other signals contributed, as if it had been mined once', async () => {
    const [twice, once] = [await newProject(), await newProject()];
    const first = [signal('a', 0, 'thumbs_down'), signal('a', 1, 'wrong_source', { chunkId: 'shipping-1' }), signal('b', 0, 'thumbs_down')];
    // The next day: a second flag on a's answer, and b takes the thumbs-down back.
    const later = [signal('a', 2, 'wrong_source', { chunkId: 'credit-1' }), signal('b', 1, 'thumbs_up')];
    await send(twice, traces(['a', 'b']), first);
    await runNightly(env, Date.now() + 1_000, { projects: [twice.id] });
    const before = await mined(twice.id);
    expect(before.items.length).toBeGreaterThan(0);
    expect(before.traces.some((t) => t.trace_id === 't-b')).toBe(true);
    await send(twice, [], later);
    const night2 = await runNightly(env, nightsAfterNow(1), { projects: [twice.id] });
    expect(night2.done).toBe(true);

    await send(once, traces(['a', 'b']), [...first, ...later]);
    await runNightly(env, Date.now() + 1_000, { projects: [once.id] });
    const after = await mined(twice.id);
    expect(after).toEqual(await mined(once.id));
    // b's answer is no longer bad: its contributions left the items it had raised.
    expect(after.traces.some((t) => t.trace_id === 't-b')).toBe(false);
    const flagged = after.items.find((i) => i.chunk_id === 'credit-1')!;
    expect(flagged).toMatchObject({ trace_count: 1, guess: 'retrieval_failed' });
    expect(JSON.parse(flagged.evidence as string)).toContainEqual({ code: 'flagged_wrong_source', confidence: expect.any(Number) });
  });

  it('mines a source read with focus on a good answer as relevant, and one only glanced at not at all', async () => {
    const p = await newProject();
    await send(p, traces(['a']), [
      signal('a', 0, 'thumbs_up'),
      signal('a', 1, 'citation_dwell', { chunkId: 'shipping-1', ms: 20_000, mode: 'preview' }),
      signal('a', 2, 'citation_dwell', { chunkId: 'credit-1', ms: 2_000, mode: 'preview' }),
    ]);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const { items } = await mined(p.id);
    const read = items.find((i) => i.chunk_id === 'shipping-1');
    expect(read).toMatchObject({ candidate: 'positive', trace_count: 1 });
    expect(JSON.parse(read!.evidence as string)).toContainEqual({ code: 'read_with_focus', score: expect.any(Number) });
    expect(items.find((i) => i.chunk_id === 'credit-1')).toBeUndefined();
  });

  it("takes an erased user's traces out of the items others raised too, as if they had never been mined", async () => {
    const [erased, never] = [await newProject(), await newProject()];
    // The erased user's answer is the latest mined (trace ids order a slice), typed in their own words.
    const typed = { zed: 'Opened items: refund??' };
    const signals = [signal('zed', 0, 'thumbs_down'), signal('zed', 1, 'wrong_source', { chunkId: 'shipping-1' }), signal('stays', 0, 'thumbs_down')];
    await send(erased, traces(['zed', 'stays'], typed), signals);
    await runNightly(env, Date.now() + 1_000, { projects: [erased.id] });
    const shared = (await mined(erased.id)).items.find((i) => i.chunk_id === 'shipping-1')!;
    expect(shared).toMatchObject({ trace_count: 2, query: typed.zed });
    const res = await admin(erased, '/users/zed', { method: 'DELETE' });
    expect(res.status).toBe(200);

    const stays = traces(['zed', 'stays'])[1]!;
    await send(never, [stays], signals.slice(2));
    await runNightly(env, Date.now() + 1_000, { projects: [never.id] });
    const left = await mined(erased.id);
    expect(left).toEqual(await mined(never.id));
    // Nothing the erased user typed stays on the items others raised.
    expect(left.items.find((i) => i.chunk_id === 'shipping-1')).toMatchObject({ trace_count: 1, query: stays.query });
    // The item's traces as the console lists them: only the one left.
    const item = left.items.find((i) => i.chunk_id === 'shipping-1')!;
    const listed = await admin<{ traces: { traceId: string }[] }>(erased, `/review/${item.item_id}/traces`);
    expect(listed.body.traces.map((t) => t.traceId)).toEqual(['t-stays']);
  });
});

describe('review item ids', () => {
  it("start with their question's id, so that a question's items sort together", async () => {
    const p = await newProject();
    // c asks in stop words alone: its question's key is its answer's own.
    const typed = { b: 'When does shipping to Canada arrive?', c: 'What is it?' };
    const asked = traces(['a', 'b', 'c'], typed);
    await send(p, asked, [signal('a', 0, 'thumbs_down'), signal('b', 0, 'thumbs_down'), signal('c', 0, 'thumbs_down')]);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id], tracesPerSlice: 1 });
    const { items } = await mined(p.id);
    expect(new Set(items.map((i) => i.query))).toEqual(new Set(['refund for opened items?', typed.b, typed.c]));
    const traceOf = new Map(asked.map((t) => [t.query, t.traceId]));
    for (const item of items) {
      const key = traceQueryKey(item.query as string, traceOf.get(item.query as string)!);
      // Spelled out here, not through the code under test: the question's hash, then the pair's.
      const question = (await sha256Hex(key)).slice(0, 16);
      expect(item.item_id).toBe(question + (await sha256Hex(`${key}\u0000${item.chunk_id}`)).slice(0, 16));
    }
    // Items of one question share their first 16 characters; different questions do not.
    const prefixes = new Map<string, Set<string>>();
    for (const item of items) prefixes.set(item.query as string, (prefixes.get(item.query as string) ?? new Set()).add((item.item_id as string).slice(0, 16)));
    expect([...prefixes.values()].map((p) => p.size)).toEqual([...prefixes.values()].map(() => 1));
    expect(new Set([...prefixes.values()].flatMap((p) => [...p])).size).toBe(prefixes.size);
  });

  it('keeps the id an item was mined with before ids sorted by question, and its answer', async () => {
    const p = await newProject();
    const [a, b] = traces(['a', 'b']);
    await send(p, [a!], [signal('a', 0, 'thumbs_down'), signal('a', 1, 'wrong_source', { chunkId: 'shipping-1' })]);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    // As an earlier version stored them: the pair's hash alone.
    const key = queryKey(a!.query);
    const before = (await mined(p.id)).items;
    const legacy = new Map<string, string>();
    for (const item of before) legacy.set(item.chunk_id as string, (await sha256Hex(`${key}\u0000${item.chunk_id}`)).slice(0, 32));
    await env.DB.batch(
      ['review_item_traces', 'review_items'].flatMap((table) =>
        [...legacy].map(([chunkId, id]) =>
          env.DB.prepare(
            `update ${table} set item_id = ?1 where project_id = ?2 and item_id = (select item_id from review_items where project_id = ?2 and chunk_id = ?3)`,
          ).bind(id, p.id, chunkId),
        ),
      ),
    );
    const answered = legacy.get('shipping-1')!;
    expect((await admin(p, `/review/${answered}`, { method: 'POST', json: { verdict: 'not_relevant' } })).status).toBe(200);

    await send(p, [b!], [signal('b', 0, 'thumbs_down'), signal('b', 1, 'wrong_source', { chunkId: 'shipping-1' })]);
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    const after = (await mined(p.id)).items;
    // One item per question and chunk, each under the id it had.
    expect(after.map((i) => [i.chunk_id, i.item_id]).sort()).toEqual([...legacy].sort());
    const flagged = await env.DB.prepare('select trace_count, status, verdict from review_items where project_id = ? and item_id = ?')
      .bind(p.id, answered)
      .first();
    expect(flagged).toEqual({ trace_count: 2, status: 'answered', verdict: 'not_relevant' });
  });
});

describe("the suite's questions", () => {
  it('are read with the reads of the slice that needs them, never in a round trip of their own', async () => {
    const p = await newProject();
    await send(p, traces(['a']), [signal('a', 0, 'thumbs_down'), signal('a', 1, 'wrong_source', { chunkId: 'shipping-1' })]);
    const trips: number[] = [];
    const DB = hookedD1(env.DB, ({ sql }, run) => {
      if (sql.some((s) => s.includes('from eval_suite where project_id = ?') && s.includes('distinct query_key'))) trips.push(sql.length);
      return run();
    });
    await runNightly({ ...env, DB }, Date.now() + 1_000, { projects: [p.id] });
    expect((await mined(p.id)).items.length).toBeGreaterThan(0);
    // Mining's slice and the queue's each read them once, with other statements.
    expect(trips.length).toBe(2);
    expect(trips.every((statements) => statements > 1)).toBe(true);
  });
});
