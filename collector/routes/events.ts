import { Hono } from 'hono';
import * as v from 'valibot';
import { EventBatchSchema, FeedbackEventSchema } from '../../shared/schema/event.ts';
import { MAX_EVENTS_BODY_BYTES, MAX_EVENTS_PER_BATCH } from '../../shared/thresholds.ts';
import { firstFieldError } from '../../shared/validation.ts';
import { batchResponse, validateItems } from '../batch.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { writeRateLimit } from '../middleware/rate-limit.ts';
import { requireKey } from '../middleware/require-key.ts';
import { openDb } from '../storage/sql/db.ts';
import { addClientDrops } from '../storage/drops.ts';
import { insertEvents } from '../storage/events.ts';

type Batch = v.InferOutput<typeof EventBatchSchema>;

/** The envelope, checked before the key so a beacon's body key can be read. */
const parseEnvelope = (body: unknown): Batch => {
  if (Array.isArray(body)) throw new ApiError(400, 'invalid_batch', 'The body must be an object: { "events": [...] }', 'body');
  const parsed = v.safeParse(EventBatchSchema, body);
  if (!parsed.success) {
    const { field, message } = firstFieldError(parsed.issues);
    throw new ApiError(400, 'invalid_batch', message, field);
  }
  const { events } = parsed.output;
  if (events.length === 0) throw new ApiError(400, 'invalid_batch', 'The batch has no events', 'events');
  if (events.length > MAX_EVENTS_PER_BATCH) {
    throw new ApiError(400, 'invalid_batch', `At most ${MAX_EVENTS_PER_BATCH} events per batch`, 'events');
  }
  return parsed.output;
};

const sessionsOf = (events: readonly unknown[]) => {
  const counts = new Map<string, number>();
  for (const e of events) {
    const session = (e as { sessionId?: unknown } | null)?.sessionId;
    if (typeof session === 'string') counts.set(session, (counts.get(session) ?? 0) + 1);
  }
  return counts;
};

/** POST /v1/events: a widget's batch of feedback events (write key; JSON or text/plain for beacons). */
export const eventRoutes = new Hono<AppEnv>().post(
  '/',
  jsonBody({ maxBytes: MAX_EVENTS_BODY_BYTES, contentTypes: ['application/json', 'text/plain'] }),
  async (c, next) => {
    c.set('body', parseEnvelope(c.get('body')));
    await next();
  },
  requireKey('write'),
  writeRateLimit({
    units: (c) => (c.get('body') as Batch).events.length,
    sessions: (c) => sessionsOf((c.get('body') as Batch).events),
  }),
  async (c) => {
    const { events, dropped } = c.get('body') as Batch;
    const { valid, rejected } = validateItems(FeedbackEventSchema, events, (i) => `events[${i}]`);
    const db = openDb(c.env.DB);
    const { projectId } = c.get('auth');
    const now = Date.now();
    const inserted = await insertEvents(db, projectId, valid.map((e) => e.value), now);
    if (dropped) await addClientDrops(db, projectId, dropped, now);
    return batchResponse(c, 'event', valid.map((e) => ({ index: e.index, id: e.value.eventId })), rejected, inserted);
  },
);
