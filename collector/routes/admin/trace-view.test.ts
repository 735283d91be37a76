import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { runNightly } from '../../jobs/nightly.ts';
import { bearer, call, event, newProject, ORIGIN, trace } from '../../test/fixtures.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const admin = async <T = any>(p: Project, path: string) => {
  const res = await call(`/v1/admin${path}`, { headers: bearer(p.keys.admin) });
  return { status: res.status, body: (await res.json()) as T };
};

const refund = { chunkId: 'refund-1', sourceDocId: 'refunds.md', text: 'Opened items can be refunded within 14 days of delivery.' };
const shipping = { chunkId: 'shipping-1', sourceDocId: 'shipping.md', text: 'Shipping to Canada takes 5 to 8 business days.' };
const credit = { chunkId: 'credit-1', sourceDocId: 'credit.md', text: 'Store credit is issued for opened items and never expires.' };

/** Two turns of one session; the first answer quotes the wrong chunk after the reranker pushed the right one down. */
async function seedSession(p: Project) {
  const sessionId = `sv-${Math.random().toString(36).slice(2, 8)}`;
  const start = Date.now() - 120_000;
  const first = trace({
    sessionId,
    turnIndex: 0,
    query: 'refund for opened items?',
    rewrittenQuery: 'refund opened items policy',
    retrievedChunks: [
      { ...refund, score: 0.9, rank: 1 },
      { ...shipping, score: 0.8, rank: 2 },
      { ...credit, score: 0.7, rank: 3 },
    ],
    rerankedChunks: [
      { ...shipping, score: 0.95, rank: 1 },
      { ...credit, score: 0.6, rank: 2 },
      { ...refund, score: 0.3, rank: 3 },
    ],
    answer: 'Shipping to Canada takes 5 to 8 business days. [1]',
    createdAt: start,
  });
  const second = trace({ sessionId, turnIndex: 1, query: 'and what about store credit?', createdAt: start + 30_000 });
  expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [first, second] })).status).toBe(200);
  const events = [
    { traceId: first.traceId, sessionId, signalType: 'thumbs_down', clientTs: start + 9_000 },
    { traceId: first.traceId, sessionId, signalType: 'wrong_source', detail: { chunkId: 'shipping-1' }, clientTs: start + 12_000 },
    {
      traceId: first.traceId,
      sessionId,
      signalType: 'correction',
      detail: { text: 'Opened items can be refunded within 14 days of delivery' },
      clientTs: start + 20_000,
    },
  ].map((e) => event(e as Parameters<typeof event>[0]));
  const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events } });
  expect(res.status).toBe(200);
  return { first, second, events };
}

describe('GET /v1/admin/traces/:traceId', () => {
  it('answers the trace, its chunks per stage, citations, assessed events in time order, the session and a diagnosis', async () => {
    const p = await newProject();
    const { first, second, events } = await seedSession(p);
    await runNightly(env, Date.now() + 1_000, { projectId: p.id });

    const { status, body } = await admin(p, `/traces/${first.traceId}`);
    expect(status).toBe(200);
    expect(body.trace).toMatchObject({ query: 'refund for opened items?', rewrittenQuery: 'refund opened items policy', sessionId: first.sessionId });
    expect(body.trace).not.toHaveProperty('projectId');
    expect(body.retrievedChunks.map((c: any) => [c.rank, c.chunkId, c.text])).toEqual([
      [1, 'refund-1', refund.text],
      [2, 'shipping-1', shipping.text],
      [3, 'credit-1', credit.text],
    ]);
    expect(body.rerankedChunks.map((c: any) => [c.rank, c.chunkId, c.score])).toEqual([
      [1, 'shipping-1', 0.95],
      [2, 'credit-1', 0.6],
      [3, 'refund-1', 0.3],
    ]);
    expect(body.citations).toEqual([{ n: 1, chunkId: 'shipping-1' }]);
    expect(body.events.map((e: any) => e.eventId)).toEqual(events.map((e) => e.eventId));
    for (const e of body.events) {
      expect(e.confidence).toBeGreaterThan(0);
      expect(Array.isArray(e.rules)).toBe(true);
      expect(e.attributedTraceId).toBe(first.traceId);
    }
    expect(body.stats.weightedScore).toBeLessThan(0);
    expect(body.session.map((t: any) => t.traceId)).toEqual([first.traceId, second.traceId]);
    expect(body.reviewItems.length).toBeGreaterThan(0);
    expect(body.diagnosis).toEqual(
      expect.arrayContaining([
        { kind: 'correction_in_chunk', chunkId: 'refund-1', rank: 3, overlap: 1, cited: false },
        { kind: 'reranker_demoted', chunkId: 'refund-1', from: 1, to: 3 },
        { kind: 'flagged_source', chunkId: 'shipping-1', rank: 1 },
      ]),
    );
  });

  it('answers feedback that arrived before its trace with a null trace, and 404 when neither exists', async () => {
    const p = await newProject();
    const e = event({ traceId: `early-${Math.random().toString(36).slice(2)}`, signalType: 'thumbs_up' });
    expect((await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: [e] } })).status).toBe(200);
    const early = await admin(p, `/traces/${e.traceId}`);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ trace: null, retrievedChunks: [], session: [], diagnosis: [] });
    expect(early.body.events.map((x: any) => [x.eventId, x.confidence])).toEqual([[e.eventId, null]]);
    const none = await admin(p, '/traces/no-such-trace');
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ error: { code: 'trace_not_found', field: 'traceId' } });
  });

  it('shows no other project its traces', async () => {
    const [p, other] = [await newProject(), await newProject()];
    const { first } = await seedSession(p);
    expect((await admin(other, `/traces/${first.traceId}`)).status).toBe(404);
  });
});

describe('GET /v1/admin/review/:id/traces', () => {
  it('lists the traces behind an item with what each contributed', async () => {
    const p = await newProject();
    const { first } = await seedSession(p);
    await runNightly(env, Date.now() + 1_000, { projectId: p.id });
    const review = await admin<{ items: { id: string; traceIds: string[] }[] }>(p, '/review?limit=50');
    const item = review.body.items.find((i) => i.traceIds.includes(first.traceId))!;
    expect(item).toBeDefined();
    const { status, body } = await admin(p, `/review/${item.id}/traces`);
    expect(status).toBe(200);
    expect(body.traces.map((t: any) => t.traceId)).toEqual(item.traceIds);
    expect(body.traces[0]).toMatchObject({ traceId: first.traceId, query: 'refund for opened items?', createdAt: first.createdAt });
    expect(body.traces[0].evidence.length).toBeGreaterThan(0);
    expect(typeof body.traces[0].weight).toBe('number');
    expect((await admin(p, '/review/no-such-item/traces')).status).toBe(404);
  });
});
