import { type ArchivedChunk, ObjectTexts } from '../../shared/archive-texts.ts';
import type { ArchiveKind } from './schema/index.ts';
import { TEXT_VERSION } from './sql/chunk-text.ts';
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
  /** D1 queries one page read takes. */
  pageQueries: number;
  /** One row: `rows` (count) and `last` (the latest arrival, null for none). */
  fingerprintSql: string;
  /**
   * The arrivals pages start at (`at`, in order): the first row's and every ?4th row's after it.
   * A page is read as the rows from its start to the next page's, so each read touches only its
   * own rows (paging by offset sorted all the day's rows again for every page).
   */
  pageStartsSql: string;
  /**
   * The lines of the rows that arrived from `from` (inclusive) to `to` (exclusive), in order, and
   * the latest arrival among them (0 for none); `texts` is what the object has written so far.
   */
  readPage(db: D1Database, projectId: string, from: number, to: number, texts: ObjectTexts): Promise<{ lines: string[]; last: number }>;
}

/** SQL numbering the arrivals `at` (ordered by `n`) over `rows`, keeping every ?4th from the first. */
const everyPageRowsth = (rows: string) => `select at from (${rows}) where (n - 1) % ?4 = 0 order by at`;
const NUMBERED_ARRIVAL = (column: string) => `${column} as at, row_number() over (order by ${column}) as n`;

const EVENT_COLUMNS = `e.event_id as eventId, e.trace_id as traceId, e.session_id as sessionId, e.signal_type as signalType,
  e.signal_value as signalValue, e.signal_group as signalGroup, e.detail, e.widget_version as widgetVersion, e.shown_ms as shownMs,
  e.ip_hash as ipHash, e.client_ts as clientTs, e.received_at as receivedAt, t.user_id_hash as userIdHash`;

const EVENTS_RECEIVED = 'e.received_at >= ?2 and e.received_at < ?3';

// With the hashed user of the answer it is about (when stored), which an erasure of that user looks for.
const EVENTS_PAGE_SQL = `${eventsReceivedSql(EVENT_COLUMNS, EVENTS_RECEIVED)}
  left join traces t on t.project_id = ?1 and t.trace_id = e.trace_id
  order by e.received_at, e.event_id`;

const TRACES_RECEIVED = 't.project_id = ?1 and t.received_at >= ?2 and t.received_at < ?3';

const TRACES_PAGE_SQL = `select t.trace_id as traceId, t.session_id as sessionId, t.user_id_hash as userIdHash, t.turn_index as turnIndex, t.query,
    t.rewritten_query as rewrittenQuery, t.top_k as topK, t.threshold, t.embedding_model as embeddingModel, t.prompt, t.answer, t.model,
    t.reranker_version as rerankerVersion, t.intent, t.knowledge_base as knowledgeBase, t.created_at as createdAt, t.received_at as receivedAt
  from traces t where ${TRACES_RECEIVED}
  order by t.received_at, t.trace_id`;

/**
 * The chunk rows of the same traces, as plain columns (a chunk's score is written as stored: JSON
 * built in SQL keeps 15 digits), each text read only for the page's first row citing it (`first`),
 * in the order the lines are written.
 */
const TRACE_CHUNKS_PAGE_SQL = `select k.traceId, k.stage, k.rank, k.chunkId, k.sourceDocId, k.sourceDocVersion, k.score, k.n = 1 as first, ct.text
  from (
    select c.trace_id as traceId, c.stage, c.rank, c.chunk_id as chunkId, c.source_doc_id as sourceDocId,
      c.source_doc_version as sourceDocVersion, c.score, ${TEXT_VERSION} as textVersion,
      row_number() over (partition by c.chunk_id, ${TEXT_VERSION} order by t.received_at, t.trace_id, c.stage, c.rank) as n
    from traces t cross join trace_chunks c on c.project_id = ?1 and c.trace_id = t.trace_id
    where ${TRACES_RECEIVED}
  ) k
  left join chunk_texts ct on k.n = 1 and ct.project_id = ?1 and ct.chunk_id = k.chunkId and ct.source_doc_version = k.textVersion`;

interface ChunkRow {
  traceId: string;
  stage: string;
  rank: number;
  chunkId: string;
  sourceDocId: string;
  sourceDocVersion: string | null;
  score: number;
  first: number;
  text: string | null;
}

/** Stages, then ranks (stages are ASCII words, so code-unit order is their order). */
const byStageThenRank = (a: ChunkRow, b: ChunkRow) => (a.stage < b.stage ? -1 : a.stage > b.stage ? 1 : a.rank - b.rank);

/** The arrival of the last of rows read in order of arrival. */
const lastArrival = (rows: readonly Record<string, unknown>[]) => (rows.at(-1)?.receivedAt as number | undefined) ?? 0;

export const ARCHIVED_TABLES: Record<ArchiveKind, ArchivedTable> = {
  events: {
    id: 'eventId',
    pageRows: 5_000,
    pageQueries: 1,
    // Walks the type index by arrival (events have no index on arrival alone).
    fingerprintSql: eventsReceivedSql('count(*) as rows, max(e.received_at) as last', EVENTS_RECEIVED),
    pageStartsSql: everyPageRowsth(eventsReceivedSql(NUMBERED_ARRIVAL('e.received_at'), EVENTS_RECEIVED)),
    async readPage(db, projectId, from, to, _texts) {
      const { results } = await db.prepare(EVENTS_PAGE_SQL).bind(projectId, from, to).all<Record<string, unknown>>();
      const lines = results.map((row) => {
        row.detail = JSON.parse(row.detail as string);
        return JSON.stringify(row);
      });
      return { lines, last: lastArrival(results) };
    },
  },
  traces: {
    id: 'traceId',
    // A page of 2,000 (some 10 MB of rows and chunk rows at the full benchmark's sizes) took the
    // Worker's process some 100 MB over the rest of a steady night under `wrangler dev`; 500 about 30.
    pageRows: 500,
    pageQueries: 2,
    fingerprintSql: 'select count(*) as rows, max(received_at) as last from traces where project_id = ?1 and received_at >= ?2 and received_at < ?3',
    pageStartsSql: everyPageRowsth(`select ${NUMBERED_ARRIVAL('t.received_at')} from traces t where ${TRACES_RECEIVED}`),
    async readPage(db, projectId, from, to, texts) {
      const [traces, chunkRows] = await Promise.all([
        db.prepare(TRACES_PAGE_SQL).bind(projectId, from, to).all<Record<string, unknown> & { traceId: string }>(),
        db.prepare(TRACE_CHUNKS_PAGE_SQL).bind(projectId, from, to).all<ChunkRow>(),
      ]);
      const chunks = new Map<string, ArchivedChunk[]>();
      for (const { traceId, first, text, ...row } of chunkRows.results.sort((a, b) => byStageThenRank(a, b))) {
        // Later rows citing the chunk leave its text to the first.
        const chunk: ArchivedChunk = first ? { ...row, text } : row;
        const list = chunks.get(traceId);
        if (list) list.push(chunk);
        else chunks.set(traceId, [chunk]);
      }
      const lines = traces.results.map((t) => {
        const cited = chunks.get(t.traceId) ?? [];
        texts.keep(cited);
        return JSON.stringify({ ...t, chunks: cited });
      });
      return { lines, last: lastArrival(traces.results) };
    },
  },
};

/**
 * The object of one project's raw table on one UTC day, or of one piece of it: the first piece is
 * the day's object (`2026-12-01.jsonl.gz`), the nth after it `2026-12-01.n.jsonl.gz`.
 */
export const archiveKey = (projectId: string, kind: ArchiveKind, day: string, piece = 1) =>
  `${projectId}/${kind}/${day}${piece === 1 ? '' : `.${piece}`}.jsonl.gz`;

/** What the archive reads back of a line: its row's id, arrival and user (an event's is its answer's), and the row. */
export function parseLine(kind: ArchiveKind, line: string): { id: string; receivedAt: number; userIdHash: string | null; row: Record<string, unknown> } {
  const row = JSON.parse(line) as Record<string, unknown>;
  return { id: row[ARCHIVED_TABLES[kind].id] as string, receivedAt: row.receivedAt as number, userIdHash: (row.userIdHash as string | null) ?? null, row };
}

type ParsedLine = ReturnType<typeof parseLine> & { line: string };

/** Lines in the order the archive writes them: by arrival, then id. */
const inOrder = (a: ParsedLine, b: ParsedLine) => a.receivedAt - b.receivedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A trace line's chunks (none for an event's). */
const chunksOf = (l: ParsedLine) => (l.row.chunks as ArchivedChunk[] | undefined) ?? [];

/** Lines of an object written again, a batch at a time. */
const REWRITE_BATCH_LINES = 1_000;

/**
 * An object's lines written again from its old ones, read in order: those `keep` says stay, and
 * `fresh` lines (rows that came late, full texts) merged in by arrival, each in place of an old
 * line of the same row. Each chunk text stays written once (shared/archive-texts.ts).
 * `written.last` becomes the latest arrival written.
 */
export async function* rewrittenLines(
  kind: ArchiveKind,
  old: AsyncIterable<string>,
  keep: (line: ReturnType<typeof parseLine>) => boolean,
  fresh: readonly string[],
  written: { last: number },
): AsyncGenerator<string[]> {
  const texts = new ObjectTexts();
  const late = fresh.map((line) => ({ line, ...parseLine(kind, line) })).sort(inOrder);
  const replaced = new Set(late.map((l) => l.id));
  // A late line may cite a text only an earlier late line holds: whichever is written first gives it.
  for (const l of late) texts.drop(chunksOf(l));
  let batch: string[] = [];
  const write = (l: ParsedLine) => {
    batch.push(texts.keep(chunksOf(l)) ? JSON.stringify(l.row) : l.line);
    written.last = Math.max(written.last, l.receivedAt);
  };
  let next = 0;
  for await (const line of old) {
    const l = { line, ...parseLine(kind, line) };
    while (next < late.length && inOrder(late[next]!, l) < 0) write(late[next++]!);
    if (!replaced.has(l.id) && keep(l)) write(l);
    else texts.drop(chunksOf(l));
    if (batch.length >= REWRITE_BATCH_LINES) {
      yield batch;
      batch = [];
    }
  }
  while (next < late.length) write(late[next++]!);
  yield batch;
}
