import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../shared/schema/settings.ts';
import { DAY_MS } from '../../shared/time.ts';
import type { Env } from '../env.ts';
import { DEAD_LETTER_QUEUE } from '../ingest-queue/queue-names.ts';
import { retention } from '../jobs/stages/retention.ts';
import { adminCall, bearer, call, event, newProject, ORIGIN, trace } from '../test/fixtures.ts';
import { deliver, failingDb, fakeQueue } from '../test/queue.ts';
import { stageContext } from '../test/stage-context.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const postEvents = (p: Project, events: ReturnType<typeof event>[], bindings: Partial<Env> = {}) =>
  call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN, 'cf-connecting-ip': '203.0.113.9' }, json: { events }, bindings });

const postTraces = (p: Project, traces: ReturnType<typeof trace>[]) => call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces });

const erase = async (p: Project, userIdHash: string) => expect((await adminCall(p, `/users/${userIdHash}`, { method: 'DELETE' })).status).toBe(200);

const column = async (sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .raw<[unknown]>()
  ).map((r) => r[0]);

const storedEvents = (projectId: string) => column('select event_id from feedback_events where project_id = ? order by event_id', projectId);
const storedTraces = (projectId: string) => column('select trace_id from traces where project_id = ? order by trace_id', projectId);
const tombstones = (projectId: string) => column('select trace_id from erased_traces where project_id = ? order by trace_id', projectId);

/** A project with one answer of a user to be erased and one of a user who stays, both stored. */
async function twoUsers() {
  const p = await newProject();
  const gone = trace({ userIdHash: 'u-gone', sessionId: 's-gone' });
  const stays = trace({ userIdHash: 'u-stays', sessionId: 's-stays' });
  expect((await postTraces(p, [gone, stays])).status).toBe(200);
  return { p, gone, stays };
}

describe('an erased answer stays erased', () => {
  it('records the ids of the traces an erasure deleted, and only those', async () => {
    const { p, gone, stays } = await twoUsers();
    const other = await newProject();
    await erase(p, 'u-gone');
    expect(await tombstones(p.id)).toEqual([gone.traceId]);
    expect(await storedTraces(p.id)).toEqual([stays.traceId]);
    expect(await tombstones(other.id)).toEqual([]);
  });

  it('stores no event arriving late about an erased answer, answering it duplicate; others’ events are stored', async () => {
    const { p, gone, stays } = await twoUsers();
    await erase(p, 'u-gone');
    // An outbox delivering hours later: a correction's text, a session id, the address's hash.
    const late = event({ traceId: gone.traceId, sessionId: 's-gone', signalType: 'correction', detail: { text: 'Call me on 555-0100' } });
    const theirs = event({ traceId: stays.traceId, sessionId: 's-stays' });
    const res = await postEvents(p, [late, theirs]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      accepted: 1,
      duplicate: 1,
      rejected: 0,
      rateLimited: 0,
      results: [
        { index: 0, id: late.eventId, status: 'duplicate' },
        { index: 1, id: theirs.eventId, status: 'accepted' },
      ],
    });
    expect(await storedEvents(p.id)).toEqual([theirs.eventId]);
    expect(await column('select count(*) from corrections where project_id = ?', p.id)).toEqual([0]);

    // A batch of only theirs is still answered 200, so the outbox forgets it rather than sending it for ever.
    const again = event({ traceId: gone.traceId, sessionId: 's-gone' });
    const alone = await postEvents(p, [again]);
    expect(alone.status).toBe(200);
    expect(await alone.json()).toMatchObject({ accepted: 0, duplicate: 1, rejected: 0 });
    expect(await storedEvents(p.id)).toEqual([theirs.eventId]);
  });

  it('an erased trace id in another project is not erased there', async () => {
    const { p, gone } = await twoUsers();
    const other = await newProject();
    await erase(p, 'u-gone');
    expect((await postTraces(other, [gone])).status).toBe(200);
    const e = event({ traceId: gone.traceId });
    expect(await (await postEvents(other, [e])).json()).toMatchObject({ accepted: 1 });
    expect(await storedTraces(other.id)).toEqual([gone.traceId]);
    expect(await storedEvents(other.id)).toEqual([e.eventId]);
  });

  it('the queue consumer writes no event that was in flight about an erased answer, and acks it', async () => {
    const { p, gone, stays } = await twoUsers();
    const { queue, bodies } = fakeQueue();
    const inFlight = event({ traceId: gone.traceId, sessionId: 's-gone', signalType: 'correction', detail: { text: 'My order 1234' } });
    const theirs = event({ traceId: stays.traceId, sessionId: 's-stays' });
    const res = await postEvents(p, [inFlight, theirs], { EVENTS_INGEST: 'queue', INGEST_QUEUE: queue as Queue });
    expect(await res.json()).toMatchObject({ accepted: 2 });
    await erase(p, 'u-gone');

    const result = await deliver('rag-feedback-events', bodies());
    expect(result.ackAll || result.explicitAcks.length === bodies().length).toBe(true);
    expect(result.retryMessages).toEqual([]);
    expect(await storedEvents(p.id)).toEqual([theirs.eventId]);
  });

  it('a dead letter kept after the erasure, replayed, stores none of their events', async () => {
    const { p, gone, stays } = await twoUsers();
    const { queue, bodies } = fakeQueue();
    const inFlight = event({ traceId: gone.traceId, sessionId: 's-gone' });
    const theirs = event({ traceId: stays.traceId, sessionId: 's-stays' });
    await postEvents(p, [inFlight, theirs], { EVENTS_INGEST: 'queue', INGEST_QUEUE: queue as Queue });
    await erase(p, 'u-gone');
    // Dead-lettered after the erasure: kept without their event.
    await deliver(DEAD_LETTER_QUEUE, bodies(), { bindings: { DB: failingDb } });
    expect(await column('select count(*) from dead_letters where project_id = ?', p.id)).toEqual([1]);

    expect((await adminCall(p, '/dead-letters/replay', { method: 'POST' })).body).toMatchObject({ failed: [], remaining: 0 });
    expect(await storedEvents(p.id)).toEqual([theirs.eventId]);
  });

  it('stores no trace posted again with an erased id (nor its chunks or texts), answering it duplicate', async () => {
    const { p, gone } = await twoUsers();
    await erase(p, 'u-gone');
    const chunkText = 'Only the erased answer retrieved this.';
    const retried = { ...gone, retrievedChunks: [{ chunkId: 'c-own', sourceDocId: 'own.md', score: 0.9, rank: 1, text: chunkText }], rerankedChunks: [] };
    const fresh = trace({ userIdHash: 'u-stays' });
    const res = await postTraces(p, [retried, fresh]);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      accepted: 1,
      duplicate: 1,
      results: [
        { index: 0, id: gone.traceId, status: 'duplicate' },
        { index: 1, id: fresh.traceId, status: 'accepted' },
      ],
    });
    expect(await storedTraces(p.id)).not.toContain(gone.traceId);
    expect(await storedTraces(p.id)).toContain(fresh.traceId);
    expect(await column('select count(*) from trace_chunks where project_id = ? and trace_id = ?', p.id, gone.traceId)).toEqual([0]);
    expect(await column('select count(*) from chunk_texts where project_id = ? and text = ?', p.id, chunkText)).toEqual([0]);
  });

  it('retention purges tombstones as old as raw rows it purges, and keeps newer ones', async () => {
    const p = await newProject();
    const [old, recent] = [trace({ userIdHash: 'u-old' }), trace({ userIdHash: 'u-recent' })];
    expect((await postTraces(p, [old, recent])).status).toBe(200);
    await erase(p, 'u-old');
    await erase(p, 'u-recent');
    const now = Date.now();
    const { retentionDays } = DEFAULT_LOOP_SETTINGS;
    await env.DB.prepare('update erased_traces set erased_at = ? where project_id = ? and trace_id = ?')
      .bind(now - (retentionDays + 2) * DAY_MS, p.id, old.traceId)
      .run();
    const { counts } = await retention.slice(stageContext(p.id, now), null);
    expect(counts.erasedTraces).toBe(1);
    expect(await tombstones(p.id)).toEqual([recent.traceId]);
    // Past its retention, the id is a new one: a trace sent with it is stored.
    expect(await (await postTraces(p, [old])).json()).toMatchObject({ accepted: 1 });
  });
});
