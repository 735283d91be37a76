import type { ArchiveKind } from './schema/index.ts';
import { JOIN_CHUNK_TEXT } from './sql/chunk-text.ts';
import { eventsReceivedSql } from './sql/events-by-arrival.ts';

/**
 * What the archive writes of each raw table: the rows as they arrived, one JSON object a line,
 * in a fixed order, so writing a day again from the same rows gives the same object. What the
 * collector derives and updates later is left out (an event's `superseded`, a trace's
 * `pushbackEventId`, a chunk row's `topRanked`): an archived day changes only with its rows.
 * SQL over the project ?1 and the arrivals from ?2 (inclusive) to ?3 (exclusive).
 */
export interface ArchivedTable {
  /** The line's field that identifies its row. */
  id: 'eventId' | 'traceId';
  /** Rows per read: a page stays a few MB at the largest rows the collector accepts. */
  pageRows: number;
  /** One row: `rows` (count) and `last` (the latest arrival, null for none). */
  fingerprintSql: string;
  /** A page of rows, ?4 rows from offset ?5, as objects whose JSON columns are still text. */
  pageSql: string;
  /** The line of one row of a page. */
  line(row: Record<string, unknown>): string;
}

/** Columns holding JSON as text, parsed into the line. */
const parseJson = (row: Record<string, unknown>, columns: readonly string[]) => {
  const out = { ...row };
  for (const c of columns) if (typeof out[c] === 'string') out[c] = JSON.parse(out[c] as string);
  return out;
};

const EVENT_COLUMNS = `e.event_id as eventId, e.trace_id as traceId, e.session_id as sessionId, e.signal_type as signalType,
  e.signal_value as signalValue, e.signal_group as signalGroup, e.detail, e.widget_version as widgetVersion, e.shown_ms as shownMs,
  e.ip_hash as ipHash, e.client_ts as clientTs, e.received_at as receivedAt, t.user_id_hash as userIdHash`;

const TRACE_CHUNKS = `(select json_group_array(json_object('stage', c.stage, 'rank', c.rank, 'chunkId', c.chunk_id, 'sourceDocId', c.source_doc_id,
    'sourceDocVersion', c.source_doc_version, 'score', c.score, 'text', ct.text))
  from trace_chunks c left ${JOIN_CHUNK_TEXT} where c.project_id = t.project_id and c.trace_id = t.trace_id)`;

export const ARCHIVED_TABLES: Record<ArchiveKind, ArchivedTable> = {
  events: {
    id: 'eventId',
    pageRows: 5_000,
    // Walks the type index by arrival (events have no index on arrival alone).
    fingerprintSql: eventsReceivedSql('count(*) as rows, max(e.received_at) as last', 'e.received_at >= ?2 and e.received_at < ?3'),
    // With the hashed user of the answer it is about (when stored), which an erasure of that user looks for.
    pageSql: `${eventsReceivedSql(EVENT_COLUMNS, 'e.received_at >= ?2 and e.received_at < ?3')}
      left join traces t on t.project_id = ?1 and t.trace_id = e.trace_id
      order by e.received_at, e.event_id limit ?4 offset ?5`,
    line: (row) => JSON.stringify(parseJson(row, ['detail'])),
  },
  traces: {
    id: 'traceId',
    pageRows: 1_000,
    fingerprintSql: 'select count(*) as rows, max(received_at) as last from traces where project_id = ?1 and received_at >= ?2 and received_at < ?3',
    pageSql: `select t.trace_id as traceId, t.session_id as sessionId, t.user_id_hash as userIdHash, t.turn_index as turnIndex, t.query,
        t.rewritten_query as rewrittenQuery, t.top_k as topK, t.threshold, t.embedding_model as embeddingModel, t.prompt, t.answer, t.model,
        t.reranker_version as rerankerVersion, t.intent, t.knowledge_base as knowledgeBase, t.created_at as createdAt, t.received_at as receivedAt,
        ${TRACE_CHUNKS} as chunks
      from traces t where t.project_id = ?1 and t.received_at >= ?2 and t.received_at < ?3
      order by t.received_at, t.trace_id limit ?4 offset ?5`,
    line: (row) => {
      const out = parseJson(row, ['chunks']) as Record<string, unknown> & { chunks: { stage: string; rank: number }[] };
      // json_group_array keeps no order: stages, then ranks.
      out.chunks.sort((a, b) => a.stage.localeCompare(b.stage) || a.rank - b.rank);
      return JSON.stringify(out);
    },
  },
};

/** The object of one project's raw table on one UTC day. */
export const archiveKey = (projectId: string, kind: ArchiveKind, day: string) => `${projectId}/${kind}/${day}.jsonl.gz`;

/** What the archive reads back of a line: its row's id, arrival and user (an event's is its answer's). */
export function lineFields(kind: ArchiveKind, line: string): { id: string; receivedAt: number; userIdHash: string | null } {
  const row = JSON.parse(line) as Record<string, unknown>;
  return { id: row[ARCHIVED_TABLES[kind].id] as string, receivedAt: row.receivedAt as number, userIdHash: (row.userIdHash as string | null) ?? null };
}

/** Lines in the order the archive writes them: by arrival, then id. */
export function sortLines(kind: ArchiveKind, lines: readonly string[]): string[] {
  const keyed = lines.map((line) => ({ line, ...lineFields(kind, line) }));
  keyed.sort((a, b) => a.receivedAt - b.receivedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return keyed.map((k) => k.line);
}
