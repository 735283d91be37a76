import { Hono } from 'hono';
import * as v from 'valibot';
import { TraceSchema } from '../../../shared/schema/trace.ts';
import { MAX_TRACES_BODY_BYTES, MAX_TRACES_PER_BATCH } from '../../../shared/thresholds.ts';
import { utcDay } from '../../../shared/time.ts';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { firstCountedDay } from '../../jobs/stages/raw-cutoff.ts';
import { traceSummary } from '../../loop/trace-score.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { writeRateLimit } from '../../middleware/rate-limit.ts';
import { requireKey } from '../../middleware/require-key.ts';
import { validBody } from '../../middleware/valid-body.ts';
import { eventsOfTrace } from '../../storage/events.ts';
import { settingsOf } from '../../storage/loop-settings.ts';
import { openDb } from '../../storage/sql/db.ts';
import { insertTraces, traceWithChunks } from '../../storage/traces.ts';
import { batchResponse, rejectedItem, validateItems } from './batch.ts';

/** A body is one trace object or a batch of them; the traces themselves are validated one by one. */
const TracesBody = v.pipe(
  v.unknown(),
  v.transform((body): { items: unknown[]; batched: boolean } => (Array.isArray(body) ? { items: body, batched: true } : { items: [body], batched: false })),
  v.check(({ items }) => items.length > 0, 'The batch has no traces'),
  v.check(({ items }) => items.length <= MAX_TRACES_PER_BATCH, `At most ${MAX_TRACES_PER_BATCH} traces per batch`),
);

/**
 * Refuses, naming its `createdAt`, an answer made before the first day the next night's run keeps
 * the project's aggregates for (`aggregateRetentionDays`): counted for its day, it would be purged
 * with it at once, and the day and document views would never show it. The settings are read only
 * for a batch holding an answer made before today, which the shortest retention allowed (a day)
 * alone refuses, as a backfill does.
 */
async function refuseBeforeAggregates(
  d1: D1Database,
  projectId: string,
  { valid, rejected }: ReturnType<typeof validateItems<typeof TraceSchema>>,
  now: number,
  fieldOf: (i: number) => string,
): Promise<ReturnType<typeof validateItems<typeof TraceSchema>>> {
  const today = utcDay(now);
  if (!valid.some((t) => utcDay(t.value.createdAt) < today)) return { valid, rejected };
  const { aggregateRetentionDays } = await settingsOf(d1, projectId);
  const firstDay = firstCountedDay(now, aggregateRetentionDays);
  const tooOld = (t: (typeof valid)[number]) => utcDay(t.value.createdAt) < firstDay;
  return {
    valid: valid.filter((t) => !tooOld(t)),
    rejected: [
      ...rejected,
      ...valid.filter(tooOld).map((t) =>
        rejectedItem(t.index, [
          {
            field: `${fieldOf(t.index)}.createdAt`,
            message: `is before ${firstDay}, the first day tomorrow's run keeps the project's aggregates of (aggregateRetentionDays (${aggregateRetentionDays})): its day's counts would be purged at once`,
          },
        ]),
      ),
    ].sort((a, b) => a.index - b.index),
  };
}

export const traceRoutes = new Hono<AppEnv>()
  /** POST /v1/traces: one trace or a batch, from the RAG backend (server key). */
  .post(
    '/',
    // The key is never in the body: a request without one is refused before its body is read.
    requireKey('server'),
    jsonBody({ maxBytes: MAX_TRACES_BODY_BYTES, contentTypes: ['application/json'] }),
    validBody(TracesBody, 'invalid_batch'),
    writeRateLimit(({ items }: { items: unknown[] }) => ({ units: items.length })),
    async (c) => {
      const { items, batched } = c.get('input');
      const fieldOf = (i: number) => (batched ? `traces[${i}]` : 'trace');
      const checked = validateItems(TraceSchema, items, fieldOf);
      const now = Date.now();
      const { valid, rejected } = await refuseBeforeAggregates(c.env.DB, c.get('auth').projectId, checked, now, fieldOf);
      const inserted = await insertTraces(
        openDb(c.env.DB),
        c.get('auth').projectId,
        valid.map((t) => t.value),
        now,
      );
      return batchResponse(
        c,
        'trace',
        valid.map((t) => ({ index: t.index, id: t.value.traceId })),
        rejected,
        inserted,
      );
    },
  )
  /** GET /v1/traces/:id: the whole chain for one answer, with every event (admin key). */
  .get('/:id', requireKey('admin'), async (c) => {
    const db = openDb(c.env.DB);
    const projectId = c.get('auth').projectId;
    const traceId = c.req.param('id');
    const [{ trace, chunks }, events] = await Promise.all([traceWithChunks(db, projectId, traceId), eventsOfTrace(db, projectId, traceId)]);
    if (!trace && events.length === 0) {
      throw new ApiError(404, { code: 'trace_not_found', message: `No trace or feedback with id ${traceId}`, field: 'id' });
    }
    return c.json({
      /** Null while feedback has arrived but its trace has not (it joins when it lands). */
      trace: trace ?? null,
      retrievedChunks: chunks.filter((ch) => ch.stage === 'retrieved'),
      rerankedChunks: chunks.filter((ch) => ch.stage === 'reranked'),
      events,
      summary: traceSummary(events),
    });
  });
