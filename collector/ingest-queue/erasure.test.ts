import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { DeadLetterReplay, DeadLetters } from '../../shared/admin-api/dead-letters.ts';
import type { Env } from '../env.ts';
import { adminCall, bearer, call, event, newProject, ORIGIN, trace } from '../test/fixtures.ts';
import { hookedD1, once } from '../test/hooked-d1.ts';
import { deliver, failingDb, fakeQueue } from '../test/queue.ts';
import type { QueuedEvents } from './messages.ts';
import { DEAD_LETTER_QUEUE } from './queue-names.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

/** The message each request of these events queues, as the events queue would deliver it. */
async function queuedBodies(p: Project, requests: { events: ReturnType<typeof event>[]; dropped?: number }[]): Promise<QueuedEvents[]> {
  const { queue, bodies } = fakeQueue();
  const bindings: Partial<Env> = { EVENTS_INGEST: 'queue', INGEST_QUEUE: queue as Queue };
  for (const json of requests)
    expect((await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json, bindings })).status).toBe(200);
  return bodies();
}

/** Kept as dead letters, as the DLQ consumer keeps what D1 would not write: their ids, in order. */
const deadLettered = async (bodies: QueuedEvents[]) => (await deliver(DEAD_LETTER_QUEUE, bodies, { bindings: { DB: failingDb } })).ids;

const deadLettersOf = async (projectId: string) =>
  (
    await env.DB.prepare('select id, message from dead_letters where project_id = ? order by id').bind(projectId).all<{ id: string; message: string }>()
  ).results.map((d) => ({ id: d.id, message: JSON.parse(d.message) as QueuedEvents }));

const storedEvents = async (projectId: string) =>
  (await env.DB.prepare('select event_id from feedback_events where project_id = ? order by event_id').bind(projectId).all<{ event_id: string }>()).results.map(
    (r) => r.event_id,
  );

const dropReports = async (projectId: string) =>
  (
    await env.DB.prepare('select event_id, dropped from client_drop_reports where project_id = ? order by event_id')
      .bind(projectId)
      .all<{ event_id: string; dropped: number }>()
  ).results;

describe("erasing a user takes their events out of the project's dead letters", () => {
  it("keeps a dead letter's other events in their order, forgets one left with none (its drop report kept), and a replay stores none of theirs", async () => {
    const [p, other] = [await newProject(), await newProject()];
    const [gone1, gone2] = [trace({ userIdHash: 'u-gone' }), trace({ userIdHash: 'u-gone' })];
    const [stays1, stays2] = [trace({ userIdHash: 'u-stays' }), trace({ userIdHash: 'u-stays' })];
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [gone1, gone2, stays1, stays2] })).status).toBe(200);

    const mixed = [
      event({ traceId: gone1.traceId }),
      event({ traceId: stays1.traceId }),
      event({ traceId: gone2.traceId }),
      event({ traceId: stays2.traceId }),
    ];
    const onlyTheirs = [event({ traceId: gone1.traceId }), event({ traceId: gone2.traceId })];
    // Beside a row the schema refuses (no trace id), which is about no one erased: it stays, and so does its message.
    const withUnwritable = [event({ traceId: gone2.traceId }), event({ traceId: stays1.traceId })];
    const bodies = await queuedBodies(p, [{ events: mixed, dropped: 2 }, { events: onlyTheirs, dropped: 3 }, { events: withUnwritable }]);
    const [mixedBody, onlyTheirsBody, withUnwritableBody] = bodies;
    const unwritableRow = { ...withUnwritableBody!.rows[1]!, traceId: null as unknown as string };
    const [mixedId, , withUnwritableId] = await deadLettered([mixedBody!, onlyTheirsBody!, { rows: [withUnwritableBody!.rows[0]!, unwritableRow] }]);
    // Another project's dead letter naming the same trace id is not theirs.
    const [othersBody] = await queuedBodies(other, [{ events: [event({ traceId: gone1.traceId })] }]);
    const [othersId] = await deadLettered([othersBody!]);

    expect((await adminCall(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);

    expect(await deadLettersOf(p.id)).toEqual(
      [
        { id: mixedId, message: { rows: [mixedBody!.rows[1], mixedBody!.rows[3]], dropped: 2, firstEventId: mixed[0]!.eventId } },
        { id: withUnwritableId, message: { rows: [unwritableRow] } },
      ].sort((a, b) => a.id!.localeCompare(b.id!)),
    );
    // The client's count of what it lost names no one: kept as the forgotten message's write would have kept it.
    expect(await dropReports(p.id)).toEqual([{ event_id: onlyTheirs[0]!.eventId, dropped: 3 }]);
    expect(await deadLettersOf(other.id)).toEqual([{ id: othersId, message: othersBody }]);

    // Replayed after the erasure: only the other user's events are stored.
    const { body } = await adminCall<DeadLetterReplay>(p, '/dead-letters/replay', { method: 'POST' });
    expect(body).toMatchObject({ written: [mixedId], failed: [{ id: withUnwritableId }], remaining: 1 });
    expect(await storedEvents(p.id)).toEqual([mixed[1]!.eventId, mixed[3]!.eventId].sort());
    // The mixed message's report, keyed by its batch's first event, as the batch sent again would key it.
    expect(await dropReports(p.id)).toEqual(
      [
        { event_id: onlyTheirs[0]!.eventId, dropped: 3 },
        { event_id: mixed[0]!.eventId, dropped: 2 },
      ].sort((a, b) => a.event_id.localeCompare(b.event_id)),
    );
  });
});

describe('a message dead-lettered after its user was erased', () => {
  it('is kept without the events about their answers, which neither the list nor a later replay holds', async () => {
    const p = await newProject();
    const [gone, stays] = [trace({ userIdHash: 'u-gone' }), trace({ userIdHash: 'u-stays' })];
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [gone, stays] })).status).toBe(200);
    const theirs = event({ traceId: gone.traceId, signalType: 'correction', detail: { text: 'Call me on 555-0100' } });
    const other = event({ traceId: stays.traceId });
    // Queued before the erasure; the queue's retries and the dead-letter queue's write fail after it.
    const [mixed, onlyTheirs] = await queuedBodies(p, [
      { events: [theirs, other], dropped: 2 },
      { events: [event({ traceId: gone.traceId })], dropped: 3 },
    ]);
    expect((await adminCall(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    const result = await deliver(DEAD_LETTER_QUEUE, [mixed!, onlyTheirs!], { bindings: { DB: failingDb } });

    // The other user's event is kept, with the batch's drop report keyed as its write keys it.
    expect(await deadLettersOf(p.id)).toEqual([{ id: result.ids[0], message: { rows: [mixed!.rows[1]], dropped: 2, firstEventId: theirs.eventId } }]);
    const { body } = await adminCall<DeadLetters>(p, '/dead-letters');
    expect(JSON.stringify(body)).not.toContain('555-0100');
    // One holding nothing else waits for D1 in the queue, as one D1 could not keep: written then, its drop report is stored.
    expect(result.retryMessages.map((m) => m.msgId)).toEqual([result.ids[1]]);
    expect(await deliver(DEAD_LETTER_QUEUE, [onlyTheirs!], { ids: [result.ids[1]!] })).toMatchObject({ explicitAcks: [result.ids[1]] });
    expect(await dropReports(p.id)).toEqual([{ event_id: onlyTheirs!.rows[0]!.eventId, dropped: 3 }]);

    const replayed = await adminCall<DeadLetterReplay>(p, '/dead-letters/replay', { method: 'POST' });
    expect(replayed.body).toMatchObject({ written: [result.ids[0]], failed: [], remaining: 0 });
    expect(await storedEvents(p.id)).toEqual([other.eventId]);
  });
});

describe('an erasure landing while a message is dead-lettered', () => {
  it('keeps none of their events when it lands after the write failed, just before the letter is kept', async () => {
    const p = await newProject();
    const [gone, stays] = [trace({ userIdHash: 'u-gone' }), trace({ userIdHash: 'u-stays' })];
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [gone, stays] })).status).toBe(200);
    const theirs = event({ traceId: gone.traceId, signalType: 'correction', detail: { text: 'Call me on 555-0100' } });
    const other = event({ traceId: stays.traceId });
    const [body] = await queuedBodies(p, [{ events: [theirs, other] }]);
    // D1 refuses the write; the erasure lands after the consumer looked for erased answers, just before the letter is kept.
    const erase = once(async () => expect((await adminCall(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200));
    const racing = hookedD1(env.DB, async ({ batch, sql }, run) => {
      if (batch) throw new Error('D1_ERROR: database is locked');
      if (sql.some((s) => /insert into "?dead_letters"?/.test(s))) await erase();
      return run();
    });
    const result = await deliver(DEAD_LETTER_QUEUE, [body!], { bindings: { DB: racing } });

    expect(result.explicitAcks).toEqual(result.ids);
    expect(await deadLettersOf(p.id)).toEqual([{ id: result.ids[0], message: { rows: [body!.rows[1]] } }]);
    expect(JSON.stringify((await adminCall<DeadLetters>(p, '/dead-letters')).body)).not.toContain('555-0100');
  });
});

describe('dead letters kept before erasure took their events out (migration 0048)', () => {
  it('lose the events about answers erased since, as an erasure takes them out, and a replay stores none of theirs', async () => {
    const [p, other] = [await newProject(), await newProject()];
    const [gone, stays] = [trace({ userIdHash: 'u-gone' }), trace({ userIdHash: 'u-stays' })];
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [gone, stays] })).status).toBe(200);
    const theirs = event({ traceId: gone.traceId, signalType: 'correction', detail: { text: 'Call me on 555-0100' } });
    const others = [event({ traceId: stays.traceId }), event({ traceId: stays.traceId })];
    const [mixed, onlyTheirs, notTheirs] = await queuedBodies(p, [
      { events: [theirs, others[0]!], dropped: 2 },
      { events: [event({ traceId: gone.traceId })], dropped: 3 },
      { events: [others[1]!] },
    ]);
    const [othersBody] = await queuedBodies(other, [{ events: [event({ traceId: gone.traceId })] }]);
    expect((await adminCall(p, '/users/u-gone', { method: 'DELETE' })).status).toBe(200);
    // Kept whole, as the consumer kept them before it looked for erased answers.
    const keep = async (projectId: string, id: string, message: QueuedEvents) =>
      env.DB.prepare(
        `insert into dead_letters (project_id, id, dead_lettered_at, message, error, attempts) values (?, ?, ?, ?, 'Error: D1_ERROR: database is locked', 1)`,
      )
        .bind(projectId, id, Date.now(), JSON.stringify(message))
        .run();
    const [mixedId, onlyTheirsId, notTheirsId, othersId] = ['old-a', 'old-b', 'old-c', 'old-d'];
    await keep(p.id, mixedId, mixed!);
    await keep(p.id, onlyTheirsId, onlyTheirs!);
    await keep(p.id, notTheirsId, notTheirs!);
    await keep(other.id, othersId, othersBody!);

    // Run over the whole database: its other letters hold no erased answer's events.
    for (const query of env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0048_'))!.queries) await env.DB.prepare(query).run();

    expect(await deadLettersOf(p.id)).toEqual([
      { id: mixedId, message: { rows: [mixed!.rows[1]], dropped: 2, firstEventId: theirs.eventId } },
      { id: notTheirsId, message: notTheirs },
    ]);
    expect(await dropReports(p.id)).toEqual([{ event_id: onlyTheirs!.rows[0]!.eventId, dropped: 3 }]);
    expect(await deadLettersOf(other.id)).toEqual([{ id: othersId, message: othersBody }]);
    expect(JSON.stringify((await adminCall<DeadLetters>(p, '/dead-letters')).body)).not.toContain('555-0100');

    const replayed = await adminCall<DeadLetterReplay>(p, '/dead-letters/replay', { method: 'POST' });
    expect(replayed.body).toMatchObject({ failed: [], remaining: 0 });
    expect(await storedEvents(p.id)).toEqual(others.map((e) => e.eventId).sort());
  });
});
