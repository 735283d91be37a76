import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SIGNALS } from '../../shared/signals.ts';
import type { Env } from '../env.ts';
import { bearer, call, event, newProject, ORIGIN, trace } from '../test/fixtures.ts';
import { deliver, failingDb, fakeQueue, unwritable } from '../test/queue.ts';
import type { QueuedEvents } from './messages.ts';

const post = (key: string, body: unknown, bindings: Partial<Env>) =>
  call('/v1/events', { method: 'POST', headers: { ...bearer(key), origin: ORIGIN, 'cf-connecting-ip': '203.0.113.9' }, json: body, bindings });

const queued = (queue: Queue<QueuedEvents>): Partial<Env> => ({ EVENTS_INGEST: 'queue', INGEST_QUEUE: queue as Queue });

/** Runs the Worker's queue handler on these messages of the events queue, delivered for the `attempts`th time. */
const consume = (bodies: readonly QueuedEvents[], attempts = 1, bindings: Partial<Env> = {}) => deliver('rag-feedback-events', bodies, { attempts, bindings });

const storedRows = async (projectId: string) =>
  (
    await env.DB.prepare(
      `select event_id, trace_id, session_id, signal_type, signal_value, signal_group, superseded, detail, widget_version, shown_ms, ip_hash, client_ts, received_at
       from feedback_events where project_id = ? order by client_ts, event_id`,
    )
      .bind(projectId)
      .all<Record<string, unknown>>()
  ).results;

const droppedOf = (projectId: string) =>
  env.DB.prepare('select sum(dropped) as n from client_drop_reports where project_id = ?').bind(projectId).first<number | null>('n');

describe('POST /v1/events with EVENTS_INGEST = "queue"', () => {
  it('writes directly by default, never touching the queue', async () => {
    expect(env.EVENTS_INGEST).toBe('direct');
    const p = await newProject();
    const { queue, sent } = fakeQueue();
    const e = event({ traceId: trace().traceId });
    const res = await post(p.keys.write, { events: [e] }, { INGEST_QUEUE: queue as Queue });
    expect(await res.json()).toMatchObject({ accepted: 1 });
    expect(sent).toEqual([]);
    expect((await storedRows(p.id)).map((r) => r.event_id)).toEqual([e.eventId]);
  });

  it('queues the rows a direct write would store, answers each event accepted, and writes nothing itself', async () => {
    const p = await newProject();
    const { traceId } = trace();
    const up = event({ traceId, signalType: 'thumbs_up' });
    const rating = event({ traceId, signalType: 'rating', detail: { stars: 2 } });
    const correction = event({ traceId, signalType: 'correction', detail: { text: 'Write to ana@example.com for refunds' } });
    const byBackend = event({ traceId, signalType: 'support_ticket', detail: { ticketId: 'HD-1' } });
    const { queue, sent, bodies, rows } = fakeQueue();
    const res = await post(p.keys.write, { events: [up, up, rating, byBackend, correction], dropped: 3 }, queued(queue));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      accepted: 3,
      duplicate: 1,
      rejected: 1,
      results: [
        { index: 0, status: 'accepted' },
        { index: 1, status: 'duplicate' },
        { index: 2, status: 'accepted' },
        { index: 3, status: 'rejected', field: 'events[3].signalType' },
        { index: 4, status: 'accepted' },
      ],
    });
    // One message for the request's events.
    expect(sent.map((b) => b.length)).toEqual([1]);
    expect(sent[0]![0]!.contentType).toBe('json');
    const [first, second, third] = rows();
    expect([first, second, third].map((r) => r?.eventId)).toEqual([up.eventId, rating.eventId, correction.eventId]);
    // The drop report rides with the batch's first event, which a direct write keys it by.
    expect(bodies()[0]!.dropped).toBe(3);
    expect(second).toEqual({
      projectId: p.id,
      eventId: rating.eventId,
      traceId,
      sessionId: rating.sessionId,
      signalType: 'rating',
      signalValue: -0.5,
      signalGroup: SIGNALS.rating.group,
      superseded: false,
      detail: { stars: 2 },
      widgetVersion: rating.widgetVersion,
      shownMs: null,
      ipHash: expect.stringMatching(/^[0-9a-f]{16}$/),
      clientTs: rating.clientTs,
    });
    // Redacted before it is queued: the queue never holds what the collector would not store.
    expect(third!.detail).toEqual({ text: 'Write to [EMAIL] for refunds' });
    expect(await storedRows(p.id)).toEqual([]);
    expect(await droppedOf(p.id)).toBeNull();
  });

  it('answers an event stored already accepted too: only the consumer can tell it is a duplicate', async () => {
    const p = await newProject();
    const e = event({ traceId: trace().traceId });
    await post(p.keys.write, { events: [e] }, {});
    const { queue, bodies } = fakeQueue();
    expect(await (await post(p.keys.write, { events: [e] }, queued(queue))).json()).toMatchObject({ accepted: 1, duplicate: 0 });
    expect(bodies()).toHaveLength(1);
  });

  it('queues only the events of sessions within their limit, answering those of a session over it rate_limited', async () => {
    const p = await newProject();
    const { traceId } = trace();
    const [flood, quiet] = [`flood-${crypto.randomUUID()}`, `quiet-${crypto.randomUUID()}`];
    const { queue, rows } = fakeQueue();
    for (let i = 0; i < 3; i++) {
      const events = Array.from({ length: 100 }, () => event({ traceId, sessionId: flood }));
      expect((await post(p.keys.write, { events }, queued(queue))).status).toBe(200);
    }
    const [held, taken] = [event({ traceId, sessionId: flood }), event({ traceId, sessionId: quiet })];
    const res = await post(p.keys.write, { events: [held, taken] }, queued(queue));
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({
      accepted: 1,
      rateLimited: 1,
      results: [
        { index: 0, id: held.eventId, status: 'rate_limited', field: 'events[0].sessionId' },
        { index: 1, id: taken.eventId, status: 'accepted' },
      ],
    });
    expect(
      rows()
        .slice(300)
        .map((r) => r.eventId),
    ).toEqual([taken.eventId]);
  });

  it('keys a drop report by the first valid event, as a direct write does, when that event is held back over its limit', async () => {
    const p = await newProject();
    const { traceId } = trace();
    const { queue, bodies } = fakeQueue();
    // A session's limit low enough to spend in a few events.
    const bindings = { ...queued(queue), RATE_LIMIT_SESSION_PER_MIN: '3' };
    const [a, b] = [`a-${crypto.randomUUID()}`, `b-${crypto.randomUUID()}`];
    const batch = [event({ traceId, sessionId: a }), event({ traceId, sessionId: b })];
    const send = (events: unknown[], dropped?: number) => post(p.keys.write, { events, dropped }, bindings);
    expect((await send(batch, 3)).status).toBe(200);
    expect((await send([event({ traceId, sessionId: a }), event({ traceId, sessionId: a })])).status).toBe(200);
    expect((await send(batch, 3)).status).toBe(429);
    expect(await consume(bodies())).toMatchObject({ ackAll: true });
    expect(await droppedOf(p.id)).toBe(3);
  });

  it('answers 503 with Retry-After when the queue refuses the batch, so the client sends it again', async () => {
    const p = await newProject();
    const { queue } = fakeQueue(new Error('Queue send failed: Too Many Requests'));
    const res = await post(p.keys.write, { events: [event({ traceId: trace().traceId })] }, queued(queue));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    // A page reads it, to wait as long.
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(await res.json()).toMatchObject({ error: { code: 'queue_unavailable' } });
    expect(await storedRows(p.id)).toEqual([]);
  });

  it('refuses bad input before the queue, as a direct write does', async () => {
    const p = await newProject();
    const { queue, sent } = fakeQueue();
    const bad = await post(p.keys.write, { events: [{ ...event({ traceId: trace().traceId }), signalType: 'applause' }] }, queued(queue));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { field: 'events[0].signalType' } });
    const unknownKey = await post('rf_write_nope', { events: [event({ traceId: trace().traceId })] }, queued(queue));
    expect(unknownKey.status).toBe(401);
    expect(sent).toEqual([]);
  });

  it('is received through the queue wrangler.toml declares, by the Worker it names as consumer', { timeout: 15_000 }, async () => {
    const p = await newProject();
    const e = event({ traceId: trace().traceId });
    expect(await (await post(p.keys.write, { events: [e] }, { EVENTS_INGEST: 'queue' })).json()).toMatchObject({ accepted: 1 });
    // Not written by the request: delivered once the consumer's batch timeout (2 s) has passed.
    expect(await storedRows(p.id)).toEqual([]);
    await expect.poll(async () => (await storedRows(p.id)).map((r) => r.event_id), { timeout: 10_000, interval: 200 }).toEqual([e.eventId]);
  });
});

describe('the queue consumer', () => {
  it('stores what was queued as a direct write stores it, received when written, and a redelivery once', async () => {
    const [direct, viaQueue] = [await newProject(), await newProject()];
    const { traceId } = trace();
    const up = event({ traceId, signalType: 'thumbs_up', clientTs: 1_800_000_000_000 });
    const down = event({ traceId, signalType: 'thumbs_down', clientTs: 1_800_000_001_000 });
    const rating = event({ traceId, signalType: 'rating', detail: { stars: 4 }, clientTs: 1_800_000_002_000 });
    const body = { events: [up, down, rating], dropped: 2 };
    expect((await post(direct.keys.write, body, {})).status).toBe(200);
    const { queue, bodies } = fakeQueue();
    expect((await post(viaQueue.keys.write, body, queued(queue))).status).toBe(200);

    const before = Date.now();
    expect(await consume(bodies())).toMatchObject({ ackAll: true, retryBatch: { retry: false } });
    // Each project hashes addresses with its own salt; the rest is the same row.
    const comparable = (rows: Record<string, unknown>[]) => rows.map(({ ip_hash, received_at, ...r }) => r);
    const stored = await storedRows(viaQueue.id);
    expect(comparable(stored)).toEqual(comparable(await storedRows(direct.id)));
    // The flip superseded the first vote, as in a direct write.
    expect(stored.map((r) => r.superseded)).toEqual([1, 0, 0]);
    expect(stored.every((r) => (r.received_at as number) >= before)).toBe(true);
    expect(await droppedOf(viaQueue.id)).toBe(2);

    // Delivered again (at least once), beside the same batch a client's retry queued again.
    expect(await consume([...bodies(), ...bodies()], 2)).toMatchObject({ ackAll: true });
    expect(await storedRows(viaQueue.id)).toEqual(stored);
    expect(await droppedOf(viaQueue.id)).toBe(2);
  });

  it("writes a batch of several projects in one go, each project's vote flips superseding its own votes", async () => {
    const projects = [await newProject(), await newProject()];
    const all: QueuedEvents[] = [];
    for (const p of projects) {
      const { queue, bodies } = fakeQueue();
      const { traceId } = trace();
      const votes = [event({ traceId, signalType: 'thumbs_up' }), event({ traceId, signalType: 'thumbs_down' })];
      await post(p.keys.write, { events: votes }, queued(queue));
      all.push(...bodies());
    }
    expect(await consume(all)).toMatchObject({ ackAll: true });
    for (const p of projects)
      expect((await storedRows(p.id)).map((r) => [r.signal_type, r.superseded])).toEqual([
        ['thumbs_up', 1],
        ['thumbs_down', 0],
      ]);
  });

  it('stores a batch too large for one statement (D1 binds at most 2 MB a value) whole', async () => {
    const p = await newProject();
    const { queue, bodies } = fakeQueue();
    await post(p.keys.write, { events: [event({ traceId: trace().traceId, signalType: 'correction', detail: { text: 'Fourteen days.' } })] }, queued(queue));
    // 100 events of 50 KB, as 100 requests of one event could queue them: 5 MB of rows in one delivery.
    const [template] = bodies();
    const big = Array.from({ length: 100 }, (_, i) => ({
      rows: [{ ...template!.rows[0]!, eventId: `${template!.rows[0]!.eventId}-${i}`, detail: { text: 'x'.repeat(50_000) } }],
    }));
    expect(await consume(big)).toMatchObject({ ackAll: true });
    expect(await storedRows(p.id)).toHaveLength(100);
  });

  it('retries each message when D1 fails, storing none of them, and stores them on the retry', async () => {
    const p = await newProject();
    const { queue, bodies } = fakeQueue();
    for (const e of [event({ traceId: trace().traceId }), event({ traceId: trace().traceId })]) await post(p.keys.write, { events: [e] }, queued(queue));
    const failed = await consume(bodies(), 1, { DB: failingDb });
    expect(failed).toMatchObject({ ackAll: false, retryBatch: { retry: false }, explicitAcks: [] });
    expect(failed.retryMessages.map((m) => m.msgId)).toEqual(failed.ids);
    expect(await storedRows(p.id)).toEqual([]);
    expect(await consume(bodies(), 2)).toMatchObject({ ackAll: true });
    expect(await storedRows(p.id)).toHaveLength(2);
  });

  it('acks the messages it could write and retries only the one it could not, so only that one reaches the dead-letter queue', async () => {
    const p = await newProject();
    const { queue, bodies } = fakeQueue();
    const events = [event({ traceId: trace().traceId }), event({ traceId: trace().traceId }), event({ traceId: trace().traceId })];
    for (const e of events) await post(p.keys.write, { events: [e] }, queued(queue));
    const [first, second, third] = bodies();
    const result = await consume([first!, unwritable(second!), third!], 5);
    expect(result).toMatchObject({ ackAll: false, retryBatch: { retry: false } });
    expect(result.explicitAcks).toEqual([result.ids[0], result.ids[2]]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual([result.ids[1]]);
    expect((await storedRows(p.id)).map((r) => r.event_id).sort()).toEqual([events[0]!.eventId, events[2]!.eventId].sort());
  });
});
