import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../shared/schema/settings.ts';
import { DAY_MS } from '../../shared/time.ts';
import type { Env } from '../env.ts';
import { retention } from '../jobs/stages/retention.ts';
import { bearer, call, event, newProject, ORIGIN, trace } from '../test/fixtures.ts';
import { deliver, downDb, failingDb, fakeQueue, unwritable } from '../test/queue.ts';
import { stageContext } from '../test/stage-context.ts';
import type { QueuedEvents } from './messages.ts';
import { DEAD_LETTER_QUEUE } from './queue-names.ts';

/** What a request of these events queues, as the events queue would deliver it. */
async function queuedBody(projectId: { keys: { write: string } }, events: ReturnType<typeof event>[]): Promise<QueuedEvents> {
  const { queue, bodies } = fakeQueue();
  const bindings: Partial<Env> = { EVENTS_INGEST: 'queue', INGEST_QUEUE: queue as Queue };
  await call('/v1/events', { method: 'POST', headers: { ...bearer(projectId.keys.write), origin: ORIGIN }, json: { events }, bindings });
  return bodies()[0]!;
}

const deadLettersOf = async (projectId: string) =>
  (
    await env.DB.prepare('select id, message, error, attempts, dead_lettered_at from dead_letters where project_id = ? order by id')
      .bind(projectId)
      .all<{ id: string; message: string; error: string; attempts: number; dead_lettered_at: number }>()
  ).results;

const storedEvents = async (projectId: string) =>
  (await env.DB.prepare('select event_id from feedback_events where project_id = ? order by event_id').bind(projectId).all<{ event_id: string }>()).results.map(
    (r) => r.event_id,
  );

describe('the dead-letter queue consumer', () => {
  it('keeps a message that still cannot be written in D1, with its error, once however often it is delivered', async () => {
    const p = await newProject();
    const bad = unwritable(await queuedBody(p, [event({ traceId: trace().traceId })]));
    const before = Date.now();
    const result = await deliver(DEAD_LETTER_QUEUE, [bad]);
    expect(result).toMatchObject({ explicitAcks: result.ids, retryMessages: [] });
    const [kept, ...others] = await deadLettersOf(p.id);
    expect(others).toEqual([]);
    expect(kept).toMatchObject({ id: result.ids[0], attempts: 1, error: expect.stringContaining('NOT NULL constraint failed: feedback_events.trace_id') });
    expect(JSON.parse(kept!.message)).toEqual(bad);
    expect(kept!.dead_lettered_at).toBeGreaterThanOrEqual(before);
    expect(await storedEvents(p.id)).toEqual([]);

    // Delivered again (at least once): still one.
    expect(await deliver(DEAD_LETTER_QUEUE, [bad], { ids: result.ids })).toMatchObject({ explicitAcks: result.ids });
    expect(await deadLettersOf(p.id)).toEqual([kept]);
  });

  it('writes a message that can be written now, keeping nothing, and keeps only the one of its batch that cannot', async () => {
    const p = await newProject();
    const e = event({ traceId: trace().traceId });
    const good = await queuedBody(p, [e]);
    const bad = unwritable(await queuedBody(p, [event({ traceId: trace().traceId })]));
    const result = await deliver(DEAD_LETTER_QUEUE, [good, bad]);
    expect(result.explicitAcks).toEqual(result.ids);
    expect(await storedEvents(p.id)).toEqual([e.eventId]);
    expect((await deadLettersOf(p.id)).map((d) => d.id)).toEqual([result.ids[1]]);
  });

  it('keeps what D1 would not write in a batch, with the error it gave', async () => {
    const p = await newProject();
    const body = await queuedBody(p, [event({ traceId: trace().traceId })]);
    const { ids } = await deliver(DEAD_LETTER_QUEUE, [body], { bindings: { DB: failingDb } });
    expect(await deadLettersOf(p.id)).toMatchObject([{ id: ids[0], error: 'Error: D1_ERROR: database is locked', attempts: 1 }]);
  });

  it('retries a message when D1 can neither write nor keep it', async () => {
    const p = await newProject();
    const body = await queuedBody(p, [event({ traceId: trace().traceId })]);
    const result = await deliver(DEAD_LETTER_QUEUE, [body], { bindings: { DB: downDb } });
    expect(result).toMatchObject({ explicitAcks: [], retryMessages: [{ msgId: result.ids[0] }] });
    expect(await deadLettersOf(p.id)).toEqual([]);
  });

  it("go with raw rows: retention purges those kept before the project's retentionDays, and keeps newer ones", async () => {
    const p = await newProject();
    const bodies = [await queuedBody(p, [event({ traceId: trace().traceId })]), await queuedBody(p, [event({ traceId: trace().traceId })])];
    const [old, recent] = (await deliver(DEAD_LETTER_QUEUE, bodies, { bindings: { DB: failingDb } })).ids;
    const now = Date.now();
    // The project's setting, not the default's: a letter of 10 days outlives 7 days' retention.
    const settings = { ...DEFAULT_LOOP_SETTINGS, retentionDays: 7 };
    await env.DB.prepare('update dead_letters set dead_lettered_at = ? where project_id = ? and id = ?')
      .bind(now - 10 * DAY_MS, p.id, old)
      .run();
    await env.DB.prepare('update dead_letters set dead_lettered_at = ? where project_id = ? and id = ?')
      .bind(now - 5 * DAY_MS, p.id, recent)
      .run();
    const { counts } = await retention.slice(stageContext(p.id, now, { settings }), null);
    expect(counts.deadLetters).toBe(1);
    expect((await deadLettersOf(p.id)).map((d) => d.id)).toEqual([recent]);
  });
});
