import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { DeadLetterReplay, DeadLetters } from '../../../shared/admin-api/dead-letters.ts';
import type { Env } from '../../env.ts';
import { DEAD_LETTER_QUEUE } from '../../ingest-queue/queue-names.ts';
import { adminCall, bearer, call, event, newProject, ORIGIN, trace } from '../../test/fixtures.ts';
import { deliver, failingDb, fakeQueue, unwritable } from '../../test/queue.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

/** Dead letters of a project as the DLQ consumer keeps them: two D1 failed to write for a while (now writable), one it never will. */
async function withDeadLetters(p: Project) {
  const { queue, bodies } = fakeQueue();
  const bindings: Partial<Env> = { EVENTS_INGEST: 'queue', INGEST_QUEUE: queue as Queue };
  const events = [event({ traceId: trace().traceId }), event({ traceId: trace().traceId }), event({ traceId: trace().traceId })];
  for (const e of events)
    await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: [e], dropped: 2 }, bindings });
  const [first, second, third] = bodies();
  const { ids: writable } = await deliver(DEAD_LETTER_QUEUE, [first!, second!], { bindings: { DB: failingDb } });
  const { ids: unwritableIds } = await deliver(DEAD_LETTER_QUEUE, [unwritable(third!)]);
  return { events, writable, unwritable: unwritableIds[0]! };
}

const storedEvents = async (projectId: string) =>
  (await env.DB.prepare('select event_id from feedback_events where project_id = ? order by event_id').bind(projectId).all<{ event_id: string }>()).results.map(
    (r) => r.event_id,
  );

const replay = (p: Project) => adminCall<DeadLetterReplay>(p, '/dead-letters/replay', { method: 'POST' });

describe('GET /v1/admin/dead-letters', () => {
  it("lists the project's dead letters with their error and events, without the client-address hash, least tried first", async () => {
    const p = await newProject();
    const { events, unwritable } = await withDeadLetters(p);
    await replay(p);
    const later = await withDeadLetters(p);
    await withDeadLetters(await newProject());
    const { status, body } = await adminCall<DeadLetters>(p, '/dead-letters');
    expect(status).toBe(200);
    expect(body.total).toBe(4);
    // The one a replay failed on last: the three kept since go first.
    expect(body.deadLetters.map((d) => d.attempts)).toEqual([1, 1, 1, 2]);
    expect(
      body.deadLetters
        .slice(0, 3)
        .map((d) => d.id)
        .sort(),
    ).toEqual([...later.writable, later.unwritable].sort());
    expect(body.deadLetters[3]).toEqual({
      id: unwritable,
      deadLetteredAt: expect.any(Number),
      error: expect.stringContaining('NOT NULL constraint failed: feedback_events.trace_id'),
      attempts: 2,
      message: {
        rows: [expect.objectContaining({ eventId: events[2]!.eventId, traceId: null, projectId: p.id })],
        dropped: 2,
        firstEventId: events[2]!.eventId,
      },
    });
    for (const d of body.deadLetters) expect(d.message.rows[0]).not.toHaveProperty('ipHash');
    expect(later.writable.map((id) => body.deadLetters.find((d) => d.id === id)?.error)).toEqual([
      'Error: D1_ERROR: database is locked',
      'Error: D1_ERROR: database is locked',
    ]);
  });

  it('says how the collector takes events, so a reader of an empty list knows whether anything could be waiting', async () => {
    const p = await newProject();
    expect(env.EVENTS_INGEST).toBe('direct');
    expect((await adminCall<DeadLetters>(p, '/dead-letters')).body).toEqual({ total: 0, deadLetters: [], ingest: 'direct' });
    const res = await call('/v1/admin/dead-letters', { headers: bearer(p.keys.admin), bindings: { EVENTS_INGEST: 'queue' } });
    expect(await res.json()).toEqual({ total: 0, deadLetters: [], ingest: 'queue' });
  });

  it('lists as many as asked, and says how many there are', async () => {
    const p = await newProject();
    await withDeadLetters(p);
    const { body } = await adminCall<DeadLetters>(p, '/dead-letters?limit=2');
    expect(body.total).toBe(3);
    expect(body.deadLetters).toHaveLength(2);
    const bad = await adminCall(p, '/dead-letters?limit=0');
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_query', field: 'query.limit' } } });
  });
});

describe('POST /v1/admin/dead-letters/replay', () => {
  it('writes each dead letter with the idempotent insert, forgets those written, and keeps one still failing with its error', async () => {
    const p = await newProject();
    const { events, writable, unwritable } = await withDeadLetters(p);
    expect(await storedEvents(p.id)).toEqual([]);

    const { status, body } = await replay(p);
    expect(status).toBe(200);
    expect([...body.written].sort()).toEqual([...writable].sort());
    expect(body.failed).toEqual([{ id: unwritable, error: expect.stringContaining('NOT NULL constraint failed') }]);
    expect(body.remaining).toBe(1);
    expect(await storedEvents(p.id)).toEqual([events[0]!.eventId, events[1]!.eventId].sort());
    // Each request's drop report once, keyed by its first event as a direct write keys it.
    const dropped = await env.DB.prepare('select sum(dropped) as n from client_drop_reports where project_id = ?').bind(p.id).first<number>('n');
    expect(dropped).toBe(4);

    // Again: the one left fails again, one more attempt; nothing is written twice.
    expect((await replay(p)).body).toMatchObject({ written: [], failed: [{ id: unwritable }], remaining: 1 });
    expect((await adminCall<DeadLetters>(p, '/dead-letters')).body.deadLetters).toMatchObject([{ id: unwritable, attempts: 3 }]);
    expect(await storedEvents(p.id)).toHaveLength(2);
  });

  it("replays only the key's own project", async () => {
    const [p, other] = [await newProject(), await newProject()];
    await withDeadLetters(other);
    expect((await replay(p)).body).toEqual({ written: [], failed: [], remaining: 0 });
    expect((await adminCall<DeadLetters>(other, '/dead-letters')).body.total).toBe(3);
  });

  it('refuses any key but an admin key, naming the key, and changes nothing', async () => {
    const p = await newProject();
    await withDeadLetters(p);
    for (const [key, status] of [
      [p.keys.viewer, 403],
      [p.keys.write, 403],
      [p.keys.server, 403],
      ['rf_admin_nope', 401],
    ] as const) {
      for (const [path, method] of [
        ['/v1/admin/dead-letters', 'GET'],
        ['/v1/admin/dead-letters/replay', 'POST'],
      ]) {
        const res = await call(path!, { method, headers: bearer(key) });
        expect([path, res.status]).toEqual([path, status]);
        expect(await res.json()).toMatchObject({ error: { field: 'key' } });
      }
    }
    expect((await call('/v1/admin/dead-letters/replay', { method: 'POST' })).status).toBe(401);
    expect((await adminCall<DeadLetters>(p, '/dead-letters')).body.total).toBe(3);
    expect(await storedEvents(p.id)).toEqual([]);
  });
});
