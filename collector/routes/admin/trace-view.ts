import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { eventsOfTrace } from '../../storage/events.ts';
import { openDb } from '../../storage/sql/db.ts';
import { traceContext } from '../../storage/trace-context.ts';
import { traceWithChunks } from '../../storage/traces.ts';
import { citedNumbers, diagnoseTrace } from './trace-diagnosis.ts';

export const traceViewRoutes = new Hono<AppEnv>()
  /**
   * GET /v1/admin/traces/:traceId: everything the root-cause view needs about one answer: the
   * trace and its chunks per stage (with text), the answer's citations, every event in time order
   * with the noise filter's confidence and rules and its attribution, signals other turns sent
   * here, the session's neighbouring turns, its review items and a preliminary diagnosis.
   */
  .get('/traces/:traceId', async (c) => {
    const { projectId } = c.get('auth');
    const traceId = c.req.param('traceId');
    const db = openDb(c.env.DB);
    const [{ trace, chunks }, events] = await Promise.all([traceWithChunks(db, projectId, traceId), eventsOfTrace(db, projectId, traceId)]);
    if (!trace && events.length === 0) {
      throw new ApiError(404, { code: 'trace_not_found', message: `No trace or feedback with id ${traceId}`, field: 'traceId' });
    }
    const session = trace?.sessionId ? { sessionId: trace.sessionId, createdAt: trace.createdAt } : null;
    const ctx = await traceContext(c.env.DB, projectId, traceId, session);
    const strip = <T extends { projectId: string; traceId: string }>({ projectId: _p, traceId: _t, ...rest }: T) => rest;
    const retrieved = chunks.filter((ch) => ch.stage === 'retrieved').map(({ stage: _s, ...ch }) => strip(ch));
    const reranked = chunks.filter((ch) => ch.stage === 'reranked').map(({ stage: _s, ...ch }) => strip(ch));
    const seen = reranked.length ? reranked : retrieved;
    const citations = trace
      ? citedNumbers(trace.answer).flatMap((n) => {
          const chunk = seen.find((ch) => ch.rank === n);
          return chunk ? [{ n, chunkId: chunk.chunkId }] : [];
        })
      : [];
    const byEvent = new Map(ctx.assessments.map((a) => [a.eventId, a]));
    const assessed = events.map(({ projectId: _p, ...e }) => {
      const a = byEvent.get(e.eventId);
      return {
        ...e,
        confidence: a?.confidence ?? null,
        rules: a?.rules ?? [],
        attributedTraceId: a?.attributedTraceId ?? null,
        attribution: a?.attribution ?? null,
      };
    });
    const diagnosis = trace
      ? diagnoseTrace({
          traceId,
          query: trace.query,
          rewrittenQuery: trace.rewrittenQuery,
          retrieved,
          reranked,
          cited: new Set(citations.map((ci) => ci.chunkId)),
          events: assessed,
          attributedHere: ctx.attributedHere,
        })
      : [];
    return c.json({
      trace: trace ? strip(trace) : null,
      retrievedChunks: retrieved,
      rerankedChunks: reranked,
      citations,
      stats: ctx.stats,
      events: assessed,
      attributedHere: ctx.attributedHere,
      session: ctx.session,
      reviewItems: ctx.reviewItems,
      diagnosis,
    });
  });
