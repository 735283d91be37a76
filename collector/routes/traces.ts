import { Hono } from 'hono';
import { TraceSchema } from '../../shared/schema/trace.ts';
import { traceScore } from '../../shared/metrics.ts';
import { MAX_TRACES_BODY_BYTES, MAX_TRACES_PER_BATCH } from '../../shared/thresholds.ts';
import { batchResponse, validateItems } from '../batch.ts';
import type { AppEnv } from '../env.ts';
import { ApiError } from '../errors.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { writeRateLimit } from '../middleware/rate-limit.ts';
import { requireKey } from '../middleware/require-key.ts';
import { openDb } from '../storage/sql/db.ts';
import { eventsOfTrace } from '../storage/events.ts';
import { insertTraces, traceWithChunks } from '../storage/traces.ts';

/** A body is one trace object or an array of them. */
const itemsOf = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);

export const traceRoutes = new Hono<AppEnv>()
  /** POST /v1/traces: one trace or a batch, from the RAG backend (server key). */
  .post(
    '/',
    jsonBody({ maxBytes: MAX_TRACES_BODY_BYTES, contentTypes: ['application/json'] }),
    requireKey('server'),
    async (c, next) => {
      const items = itemsOf(c.get('body'));
      if (items.length === 0) throw new ApiError(400, 'invalid_batch', 'The batch has no traces', 'body');
      if (items.length > MAX_TRACES_PER_BATCH) {
        throw new ApiError(400, 'invalid_batch', `At most ${MAX_TRACES_PER_BATCH} traces per batch`, 'body');
      }
      await next();
    },
    writeRateLimit({ units: (c) => itemsOf(c.get('body')).length }),
    async (c) => {
      const body = c.get('body');
      const { valid, rejected } = validateItems(TraceSchema, itemsOf(body), (i) => (Array.isArray(body) ? `traces[${i}]` : 'trace'));
      const inserted = await insertTraces(openDb(c.env.DB), c.get('auth').projectId, valid.map((t) => t.value), Date.now());
      return batchResponse(c, 'trace', valid.map((t) => ({ index: t.index, id: t.value.traceId })), rejected, inserted);
    },
  )
  /** GET /v1/traces/:id: the whole chain for one answer, with every event (admin key). */
  .get('/:id', requireKey('admin'), async (c) => {
    const db = openDb(c.env.DB);
    const projectId = c.get('auth').projectId;
    const traceId = c.req.param('id');
    const [{ trace, chunks }, events] = await Promise.all([traceWithChunks(db, projectId, traceId), eventsOfTrace(db, projectId, traceId)]);
    if (!trace && events.length === 0) throw new ApiError(404, 'trace_not_found', `No trace or feedback with id ${traceId}`, 'id');
    const live = events.filter((e) => !e.superseded);
    return c.json({
      /** Null while feedback has arrived but its trace has not (it joins when it lands). */
      trace: trace ?? null,
      retrievedChunks: chunks.filter((ch) => ch.stage === 'retrieved'),
      rerankedChunks: chunks.filter((ch) => ch.stage === 'reranked'),
      events,
      summary: { score: traceScore(live.map((e) => e.signalValue)), liveEvents: live.length },
    });
  });
