import { namedDocument } from '../../loop/mining.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { jsonArrays } from '../../storage/sql/json-insert.ts';
import { seenStageSql } from '../../storage/sql/seen-stage.ts';
import { stillStoredSql } from '../../storage/sql/still-stored.ts';
import { assessedSql, JOIN_VERDICT, VERDICT } from '../../storage/sql/verdict.ts';
import { nextCursor, type SliceResult, type Stage, sliceKeysSql, sliceParams } from './stage.ts';

interface Row {
  event_id: string;
  trace_id: string;
  /** The answer it is about, when the attribution moved it off the one it was sent on. */
  attributed_trace_id: string | null;
  query: string;
  detail: string;
  confidence: number;
  created_at: number;
  docs: string;
  /** Those of the answer it was sent on, when it is about another. */
  own_docs: string;
  /** Whether the answer it is about is stored: one erased or purged cites nothing any more. */
  about_stored: number;
}

/** The documents an answer cited, in rank order, as a JSON array. */
const citedDocsSql = (traceId: string) =>
  `(select json_group_array(source_doc_id) from (select source_doc_id from trace_chunks c where c.project_id = ?1 and c.trace_id = ${traceId}
     and c.stage = ${seenStageSql('?1', traceId)} order by rank))`;

/**
 * Routes the touched traces' corrections to an inbox: each by the document it names, else by the
 * first cited document of the answer it is about (an earlier turn, when the attribution moved it
 * there, the answer it was sent on's when that turn is gone); owners are matched at read time, so
 * changing an owner pattern re-routes what is still open, as does a new verdict (which also lists
 * it with the answer it is now about). Trusted corrections only: a flood does not reach document
 * owners, and an open one distrusted since (a flood found later) leaves the inbox.
 */
export const corrections: Stage = {
  name: 'corrections',
  async slice(ctx, cursor): Promise<SliceResult> {
    const slice = sliceKeysSql('trace');
    // Few events of a trace are corrections: a slice can take many traces.
    const size = ctx.tracesPerSlice * 4;
    const params = sliceParams(ctx, cursor, size);
    // The answer the correction is about: an earlier turn, when the attribution moved it there.
    const about = VERDICT.attributedTraceId;
    const [keyRows, correctionRows] = await ctx.db.batch([
      ctx.db.prepare(slice).bind(...params),
      ctx.db
        .prepare(
          // When the user wrote it, by the browser's clock held between the answer and the arrival:
          // a clock running ahead would keep a correction at the top of the inbox for good.
          `select e.event_id, e.trace_id, case when ${about} <> e.trace_id then ${about} end as attributed_trace_id, t.query, e.detail, ${VERDICT.confidence} as confidence, min(e.received_at, max(e.client_ts, t.created_at)) as created_at,
           ${citedDocsSql(about)} as docs, case when ${about} <> e.trace_id then ${citedDocsSql('e.trace_id')} else '[]' end as own_docs,
           ${stillStoredSql(about)} as about_stored
         from (${slice}) k cross join feedback_events e on e.project_id = ?1 and e.trace_id = k.key
         ${JOIN_VERDICT}
         join traces t on t.project_id = e.project_id and t.trace_id = e.trace_id
         -- The unary plus keeps SQLite from reading every correction of the project on the type index for each trace.
         where +e.signal_type = 'correction' and ${assessedSql('?5')}`,
        )
        .bind(...params, ctx.run.windowTo),
    ]);
    const ids = (keyRows!.results as { key: string }[]).map((r) => r.key);
    const results = correctionRows!.results as Row[];
    const distrusted = results.filter((r) => r.confidence < LOW_CONFIDENCE).map((r) => r.event_id);
    const rows = results
      .filter((r) => r.confidence >= LOW_CONFIDENCE)
      .map((r) => {
        const detail = JSON.parse(r.detail) as { text: string; source?: string };
        const aboutDocs = JSON.parse(r.docs) as string[];
        const docs = [...aboutDocs, ...(JSON.parse(r.own_docs) as string[])];
        const named = detail.source ? namedDocument(detail.source, docs) : undefined;
        // Else the answer it is about's first document: none when that answer cited none (the
        // later answer's documents had nothing to do with it), the answer it was sent on's only
        // when it is gone.
        const first = r.about_stored ? aboutDocs[0] : docs[0];
        return {
          eventId: r.event_id,
          traceId: r.trace_id,
          attributedTraceId: r.attributed_trace_id,
          query: r.query,
          text: detail.text,
          source: detail.source ?? null,
          docId: named ?? first ?? null,
          confidence: r.confidence,
          createdAt: r.created_at,
        };
      });
    // Long questions and corrections: written in parts, each a value D1 accepts.
    const inserts = jsonArrays(rows).map((part) =>
      ctx.db
        .prepare(
          `insert into corrections (project_id, event_id, trace_id, attributed_trace_id, query, text, source, source_doc_id, confidence, status, created_at)
         select ?1, value ->> 'eventId', value ->> 'traceId', value ->> 'attributedTraceId', value ->> 'query', value ->> 'text', value ->> 'source', value ->> 'docId', value ->> 'confidence', 'open', value ->> 'createdAt'
         from json_each(?2) where ${stillStoredSql("value ->> 'traceId'")}
         on conflict (project_id, event_id) do update set confidence = excluded.confidence, source_doc_id = excluded.source_doc_id,
           attributed_trace_id = excluded.attributed_trace_id
           where corrections.status = 'open'`,
        )
        .bind(ctx.projectId, part),
    );
    const withdrawals = jsonArrays(distrusted).map((part) =>
      ctx.db
        .prepare(`delete from corrections where project_id = ?1 and status = 'open' and event_id in (select value from json_each(?2))`)
        .bind(ctx.projectId, part),
    );
    const written = inserts.length + withdrawals.length > 0 ? await ctx.db.batch([...inserts, ...withdrawals]) : [];
    const withdrawn = written.slice(inserts.length).reduce((sum, r) => sum + r.meta.changes, 0);
    return { cursor: nextCursor(ctx, ids, size), counts: { corrections: rows.length, ...(withdrawn > 0 && { withdrawn }) } };
  },
};
