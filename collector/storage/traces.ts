import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Chunk, Trace } from '../../shared/schema/trace.ts';
import { TOP_RANKS } from '../../shared/thresholds.ts';
import { pushbackEventId, pushbackEvents } from './pushbacks.ts';
import { chunkTexts, traceChunks, traces } from './schema/index.ts';
import type { Db } from './sql/db.ts';
import { notErased } from './sql/erased-traces.ts';
import { insertJsonRows } from './sql/json-insert.ts';
import { rawBatch } from './sql/raw-batch.ts';

const chunkRows = (projectId: string, traceId: string, stage: (typeof traceChunks.$inferInsert)['stage'], chunks: readonly Chunk[], last: boolean) =>
  chunks.map(({ text, ...ch }) => ({
    projectId,
    traceId,
    stage,
    ...ch,
    sourceDocVersion: ch.sourceDocVersion ?? null,
    topRanked: last && ch.rank <= TOP_RANKS,
  }));

/**
 * Stores validated traces and their chunks in one atomic batch and returns the trace ids that
 * were new. The first write of a trace id wins, chunks included: a trace stored before, or
 * repeated later in the same batch, adds nothing; so does one whose id an erasure deleted (`erased_traces`).
 */
export async function insertTraces(db: Db, projectId: string, batch: readonly Trace[], now: number): Promise<Set<string>> {
  if (batch.length === 0) return new Set();
  const firsts = batch.filter((t, i) => batch.findIndex((u) => u.traceId === t.traceId) === i);
  const pushbacks = await Promise.all(firsts.map(pushbackEventId));
  const rows = firsts.map((t, i) => ({
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
    pushbackEventId: pushbacks[i] ?? null,
  }));
  const chunks = firsts.flatMap((t) => {
    const reranked = t.rerankedChunks ?? [];
    return [
      ...chunkRows(projectId, t.traceId, 'retrieved', t.retrievedChunks, reranked.length === 0),
      ...chunkRows(projectId, t.traceId, 'reranked', reranked, true),
    ];
  });
  // Chunks and their texts go in first, and only for traces not stored yet: the batch then stores
  // their trace rows, so a trace sent again adds nothing.
  // An erased trace's id (`erased_traces`) counts as stored: sent again, it stores nothing.
  const unerased = notErased(projectId, sql.raw("json_extract(value, '$.traceId')"));
  const unstored = {
    where: sql`not exists (select 1 from ${traces} where ${traces.projectId} = ${projectId} and ${traces.traceId} = json_extract(value, '$.traceId')) and ${unerased}`,
  };
  const chunkInserts = insertJsonRows(traceChunks, chunks, unstored);
  // Each text once per chunk id and version; the chunk rows point at it.
  const texts: (typeof chunkTexts.$inferInsert & { traceId: string })[] = firsts.flatMap((t) =>
    [...t.retrievedChunks, ...(t.rerankedChunks ?? [])].map((ch) => ({
      projectId,
      chunkId: ch.chunkId,
      sourceDocVersion: ch.sourceDocVersion ?? '',
      text: ch.text,
      traceId: t.traceId,
    })),
  );
  const traceInserts = insertJsonRows(traces, rows, { returning: traces.traceId, where: unerased });
  const inSessions = firsts.filter((t) => t.sessionId !== undefined);
  const sessions = [...new Set(inSessions.map((t) => t.sessionId!))];
  const times = inSessions.map((t) => t.createdAt);
  const before = [...chunkInserts, ...insertJsonRows(chunkTexts, texts, unstored)];
  const results = await rawBatch<{ trace_id: string }>(db, [
    ...before,
    ...traceInserts,
    ...(sessions.length ? [pushbackEvents(projectId, { sessions, from: Math.min(...times), to: Math.max(...times) }, now)] : []),
  ]);
  return new Set(
    results
      .slice(before.length, before.length + traceInserts.length)
      .flat()
      .map((r) => r.trace_id),
  );
}

/** What a trace's reader is shown: all it was sent with, not the collector's own bookkeeping. */
const { pushbackEventId: _bookkeeping, ...shownColumns } = getTableColumns(traces);

/** A trace with its chunks per stage (each with its text), or undefined. */
export async function traceWithChunks(db: Db, projectId: string, traceId: string) {
  const [trace, chunks] = await db.batch([
    db
      .select(shownColumns)
      .from(traces)
      .where(and(eq(traces.projectId, projectId), eq(traces.traceId, traceId))),
    db
      .select({ ...getTableColumns(traceChunks), text: chunkTexts.text })
      .from(traceChunks)
      .innerJoin(chunkTexts, chunkTextOf(traceChunks))
      .where(and(eq(traceChunks.projectId, projectId), eq(traceChunks.traceId, traceId)))
      .orderBy(asc(traceChunks.stage), asc(traceChunks.rank)),
  ]);
  return { trace: trace[0], chunks };
}

/** The join from a chunk row to its text. */
const chunkTextOf = (c: typeof traceChunks) =>
  and(eq(chunkTexts.projectId, c.projectId), eq(chunkTexts.chunkId, c.chunkId), eq(chunkTexts.sourceDocVersion, sql`coalesce(${c.sourceDocVersion}, '')`));
