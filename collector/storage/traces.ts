import { and, asc, eq, sql } from 'drizzle-orm';
import type { Chunk, Trace } from '../../shared/schema/trace.ts';
import type { Db } from './sql/db.ts';
import { insertJsonRows } from './sql/json-insert.ts';
import { rawBatch } from './sql/raw-batch.ts';
import { traceChunks, traces } from './schema/index.ts';

const chunkRows = (projectId: string, traceId: string, stage: (typeof traceChunks.$inferInsert)['stage'], chunks: readonly Chunk[] = []) =>
  chunks.map((ch) => ({ projectId, traceId, stage, ...ch, sourceDocVersion: ch.sourceDocVersion ?? null }));

/**
 * Stores validated traces and their chunks in one atomic batch and returns the trace ids that
 * were new. The first write of a trace id wins, chunks included: a trace stored before, or
 * repeated later in the same batch, adds nothing.
 */
export async function insertTraces(db: Db, projectId: string, batch: readonly Trace[], now: number): Promise<Set<string>> {
  if (batch.length === 0) return new Set();
  const firsts = batch.filter((t, i) => batch.findIndex((u) => u.traceId === t.traceId) === i);
  const rows = firsts.map((t) => ({
    projectId,
    traceId: t.traceId,
    sessionId: t.sessionId ?? null,
    userIdHash: t.userIdHash ?? null,
    turnIndex: t.turnIndex ?? null,
    query: t.query,
    rewrittenQuery: t.rewrittenQuery ?? null,
    topK: t.retrieval.topK ?? null,
    threshold: t.retrieval.threshold ?? null,
    embeddingModel: t.retrieval.embeddingModel ?? null,
    prompt: t.prompt ?? null,
    answer: t.answer,
    model: t.model,
    rerankerVersion: t.rerankerVersion ?? null,
    intent: t.intent ?? null,
    knowledgeBase: t.knowledgeBase ?? null,
    createdAt: t.createdAt,
    receivedAt: now,
  }));
  const chunks = firsts.flatMap((t) => [
    ...chunkRows(projectId, t.traceId, 'retrieved', t.retrievedChunks),
    ...chunkRows(projectId, t.traceId, 'reranked', t.rerankedChunks),
  ]);
  // Chunks go in first, and only for traces not stored yet: the batch then stores their trace rows.
  const chunkInserts = insertJsonRows(traceChunks, chunks, {
    where: sql`not exists (select 1 from ${traces} where ${traces.projectId} = ${projectId} and ${traces.traceId} = json_extract(value, '$.traceId'))`,
  });
  const results = await rawBatch<{ trace_id: string }>(db, [...chunkInserts, ...insertJsonRows(traces, rows, { returning: traces.traceId })]);
  return new Set(results.slice(chunkInserts.length).flat().map((r) => r.trace_id));
}

/** A trace with its chunks per stage, or undefined. */
export async function traceWithChunks(db: Db, projectId: string, traceId: string) {
  const [trace, chunks] = await db.batch([
    db.select().from(traces).where(and(eq(traces.projectId, projectId), eq(traces.traceId, traceId))),
    db
      .select()
      .from(traceChunks)
      .where(and(eq(traceChunks.projectId, projectId), eq(traceChunks.traceId, traceId)))
      .orderBy(asc(traceChunks.stage), asc(traceChunks.rank)),
  ]);
  return { trace: trace[0], chunks };
}
