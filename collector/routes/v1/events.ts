import { Hono } from 'hono';
import { EventBatchSchema, FeedbackEventSchema } from '../../../shared/schema/event.ts';
import { isByBackend } from '../../../shared/signals.ts';
import { MAX_EVENTS_BODY_BYTES } from '../../../shared/thresholds.ts';
import type { AppEnv } from '../../env.ts';
import { enqueueEvents, queuesEvents } from '../../ingest-queue/send.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { writeRateLimit } from '../../middleware/rate-limit.ts';
import { requireKey } from '../../middleware/require-key.ts';
import { validBody } from '../../middleware/valid-body.ts';
import { readsQuery } from '../../middleware/valid-query.ts';
import { dropReportOf, eventRows, insertEventRows } from '../../storage/events.ts';
import { openDb } from '../../storage/sql/db.ts';
import { batchResponse, holdOverLimit, rejectedItem, validateItems } from './batch.ts';
import { clientAddressHash } from './client-address.ts';

/** Events per session in a batch (events not yet validated: a bad one still costs its session). */
const sessionsOf = (events: readonly unknown[]) => {
  const counts = new Map<string, number>();
  for (const e of events) {
    const session = typeof e === 'object' && e !== null && 'sessionId' in e ? e.sessionId : undefined;
    if (typeof session === 'string') counts.set(session, (counts.get(session) ?? 0) + 1);
  }
  return counts;
};

/** POST /v1/events: a batch of feedback events from a widget (write key; JSON or text/plain for beacons) or a backend (server key). */
export const eventRoutes = new Hono<AppEnv>().post(
  '/',
  // A beacon's write key may come as `?key=` (requireKey).
  readsQuery('key'),
  jsonBody({ maxBytes: MAX_EVENTS_BODY_BYTES, contentTypes: ['application/json', 'text/plain'] }),
  // The envelope is checked before the key, so a beacon's key can be read from the body.
  validBody(EventBatchSchema, 'invalid_batch'),
  // A backend reporting what it saw (a regenerate, a rephrase) sends its server key.
  requireKey('write', 'server'),
  writeRateLimit(({ events }: { events: unknown[] }) => ({ units: events.length, sessions: sessionsOf(events) })),
  async (c) => {
    const { events, dropped } = c.get('input');
    const checked = validateItems(FeedbackEventSchema, events, (i) => `events[${i}]`);
    const byPage = c.get('auth').kind === 'write';
    const allowed: typeof checked.valid = [];
    const backendOnly: typeof checked.valid = [];
    for (const e of checked.valid) (byPage && isByBackend(e.value.signalType) ? backendOnly : allowed).push(e);
    // Sessions over their limit while others of the batch were not: theirs wait, the rest are stored.
    const { taken: valid, held } = holdOverLimit(allowed, c.get('sessionsOverLimit'));
    const rejected = [
      ...checked.rejected,
      ...backendOnly.map(({ index, value }) =>
        rejectedItem(index, [{ field: `events[${index}].signalType`, message: `${value.signalType} is sent by a backend, with the server key` }]),
      ),
    ];
    const { projectId } = c.get('auth');
    // A write key's sender is counted by address, Origin or not: the key is public, and a script
    // leaving Origin out would otherwise flood from fresh sessions unseen by the flooding rule. A
    // backend relaying its users' events sends the server key, whose address says nothing of them.
    const ipHash = c.get('auth').kind === 'write' ? await clientAddressHash(c.env.ADDRESS_HASH_SECRET, projectId, c.req.header('cf-connecting-ip')) : null;
    const rows = eventRows(
      projectId,
      valid.map((e) => e.value),
      ipHash,
    );
    // The drop report is keyed by the first valid event, held back or not: sent again, the batch counts it once.
    const firstEventId = allowed[0]?.value.eventId;
    // Queued, every event is answered accepted: only the consumer's insert can tell a duplicate.
    const inserted = queuesEvents(c.env)
      ? await enqueueEvents(c.env.INGEST_QUEUE, rows, dropped, firstEventId)
      : await insertEventRows(openDb(c.env.DB), rows, Date.now(), dropReportOf(rows, dropped, firstEventId));
    return batchResponse(
      c,
      'event',
      valid.map((e) => ({ index: e.index, id: e.value.eventId })),
      [...rejected, ...held],
      inserted,
    );
  },
);
