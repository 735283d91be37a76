import { FOCUSED_DWELL_MS, TOP_RANKS } from '../../../shared/thresholds.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { TEXT_VERSION } from '../../storage/sql/chunk-text.ts';
import { assessedSql, EVENT_CHUNK, JOIN_VERDICT, NAMES_CHUNK, VERDICT } from '../../storage/sql/verdict.ts';
import { nextCursor, type SliceResult, type Stage, sliceKeysSql, sliceParams, touchedSlice } from './stage.ts';

/** Chunks per slice (a hundred-odd retrievals each); a day is one slice. */
const CHUNKS_PER_SLICE = 2_000;
/** Sessions per slice: a few traces each. */
const SESSIONS_PER_SLICE = 5_000;
const TRUSTED = `e.superseded = 0 and ${VERDICT.confidence} >= ${LOW_CONFIDENCE}`;

/**
 * How many traces retrieved each chunk `keys` lists (SQL, with the project as ?1) and showed it
 * first, with its document: on the chunk index, which holds all it needs. A row stored before rows
 * said whether they were shown first (migration 0014) looks up its trace's stages instead.
 */
export const chunkRetrievalsSql = (keys: string) =>
  `select c.chunk_id, min(c.source_doc_id) as doc, count(distinct c.trace_id) as retrieved,
     count(distinct case when coalesce(c.top_ranked, c.rank <= ${TOP_RANKS} and (c.stage = 'reranked' or not exists (
       select 1 from trace_chunks x where x.project_id = ?1 and x.trace_id = c.trace_id and x.stage = 'reranked'))) then c.trace_id end) as top
   from (${keys}) k cross join trace_chunks c on c.project_id = ?1 and c.chunk_id = k.key group by c.chunk_id`;

/** Per touched chunk: retrievals, and what users did with it when it was cited. */
export const chunks: Stage = {
  name: 'chunks',
  async slice(ctx, cursor): Promise<SliceResult> {
    const slice = sliceKeysSql('chunk');
    const params = sliceParams(ctx, cursor, CHUNKS_PER_SLICE);
    const [keyRows] = await ctx.db.batch([
      ctx.db.prepare(slice).bind(...params),
      ctx.db
        .prepare(
          `insert into chunk_stats (project_id, chunk_id, source_doc_id, retrieved, top_ranked, clicks, focused_dwells, dwell_ms, copies, wrong_source_flags, weighted_score, updated_at)
           select ?1, r.chunk_id, r.doc, r.retrieved, r.top, coalesce(s.clicks, 0), coalesce(s.focused, 0), coalesce(s.dwell, 0), coalesce(s.copies, 0), coalesce(s.flags, 0), s.weighted, ?5
           from (
             ${chunkRetrievalsSql(slice)}
           ) r
           left join (
             -- The events about the chunk: the one it names in its detail, on the index of events naming one
             -- (the unary plus: the key's text affinity would keep SQLite off that expression index).
             select k.key as chunk_id,
               count(case when e.signal_type = 'citation_click' and ${TRUSTED} then 1 end) as clicks,
               count(case when e.signal_type = 'citation_dwell' and json_extract(e.detail, '$.ms') >= ${FOCUSED_DWELL_MS} and ${TRUSTED} then 1 end) as focused,
               sum(case when e.signal_type = 'citation_dwell' then json_extract(e.detail, '$.ms') else 0 end) as dwell,
               count(case when e.signal_type = 'copy_source' and ${TRUSTED} then 1 end) as copies,
               count(case when e.signal_type = 'wrong_source' and ${TRUSTED} then 1 end) as flags,
               sum(case when ${TRUSTED} and e.signal_value is not null then e.signal_value * ${VERDICT.confidence} end)
                 / sum(case when ${TRUSTED} and e.signal_value is not null then ${VERDICT.confidence} end) as weighted
             from (${slice}) k cross join feedback_events e on e.project_id = ?1 and ${EVENT_CHUNK} = +k.key and ${NAMES_CHUNK}
             ${JOIN_VERDICT}
             where ${assessedSql('?6')}
             group by k.key
           ) s on s.chunk_id = r.chunk_id
           where true
           on conflict (project_id, chunk_id) do update set source_doc_id = excluded.source_doc_id, retrieved = excluded.retrieved, top_ranked = excluded.top_ranked,
             clicks = excluded.clicks, focused_dwells = excluded.focused_dwells, dwell_ms = excluded.dwell_ms, copies = excluded.copies,
             wrong_source_flags = excluded.wrong_source_flags, weighted_score = excluded.weighted_score, updated_at = excluded.updated_at`,
        )
        .bind(...params, ctx.now, ctx.run.windowTo),
    ]);
    const keys = (keyRows!.results as { key: string }[]).map((r) => r.key);
    return { cursor: nextCursor(ctx, keys, CHUNKS_PER_SLICE), counts: { chunks: keys.length } };
  },
};

/** Per touched day of answers: the project's totals and each document version's counts. */
export const days: Stage = {
  name: 'days',
  async slice(ctx, cursor): Promise<SliceResult> {
    const [day] = await touchedSlice(ctx, cursor, 'day', 1);
    if (!day) return { cursor: null, counts: {} };
    const start = Date.parse(`${day}T00:00:00Z`);
    const end = start + 86_400_000;
    const { badTraceScore: bad, goodTraceScore: good } = ctx.settings;
    const scored = 's.trusted_signals > 0';
    await ctx.db.batch([
      ctx.db.prepare('delete from document_days where project_id = ? and day = ?').bind(ctx.projectId, day),
      ctx.db
        .prepare(
          `insert into document_days (project_id, source_doc_id, source_doc_version, day, traces, scored, negative, positive, requeried)
           select ?1, d.doc, d.version, ?2, count(*), count(case when ${scored} then 1 end),
             count(case when ${scored} and s.weighted_score <= ?5 then 1 end), count(case when ${scored} and s.weighted_score >= ?6 then 1 end),
             count(case when s.requeried then 1 end)
           from (
             -- Each answer once per document version it cited, however many of its chunks.
             select distinct c.trace_id, c.source_doc_id as doc, ${TEXT_VERSION} as version
             from traces t join trace_chunks c on c.project_id = t.project_id and c.trace_id = t.trace_id
             where t.project_id = ?1 and t.created_at >= ?3 and t.created_at < ?4
           ) d
           left join trace_stats s on s.project_id = ?1 and s.trace_id = d.trace_id
           group by d.doc, d.version`,
        )
        .bind(ctx.projectId, day, start, end, bad, good),
      ctx.db
        .prepare(
          `insert into day_stats (project_id, day, traces, with_signals, with_trusted, explicit_signals, implicit_signals, signals, trusted_signals, negative, requeried)
           select ?1, ?2, count(*), count(case when s.live_signals > 0 then 1 end), count(case when s.trusted_signals > 0 then 1 end),
             coalesce(sum(s.explicit_signals), 0), coalesce(sum(s.implicit_signals), 0), coalesce(sum(s.live_signals), 0), coalesce(sum(s.trusted_signals), 0),
             count(case when ${scored} and s.weighted_score <= ?5 then 1 end), count(case when s.requeried then 1 end)
           from traces t left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
           where t.project_id = ?1 and t.created_at >= ?3 and t.created_at < ?4
           on conflict (project_id, day) do update set traces = excluded.traces, with_signals = excluded.with_signals, with_trusted = excluded.with_trusted,
             explicit_signals = excluded.explicit_signals, implicit_signals = excluded.implicit_signals, signals = excluded.signals,
             trusted_signals = excluded.trusted_signals, negative = excluded.negative, requeried = excluded.requeried`,
        )
        .bind(ctx.projectId, day, start, end, bad),
    ]);
    return { cursor: day, counts: { days: 1 } };
  },
};

/** Per touched session: its answers and how they went. */
export const sessions: Stage = {
  name: 'sessions',
  async slice(ctx, cursor): Promise<SliceResult> {
    const slice = sliceKeysSql('session');
    const params = sliceParams(ctx, cursor, SESSIONS_PER_SLICE);
    const [keyRows] = await ctx.db.batch([
      ctx.db.prepare(slice).bind(...params),
      ctx.db
        .prepare(
          `insert into session_stats (project_id, session_id, user_id_hash, traces, scored, negative, requeried, first_at, last_at)
           select ?1, t.session_id, max(t.user_id_hash), count(*), count(case when s.trusted_signals > 0 then 1 end),
             count(case when s.trusted_signals > 0 and s.weighted_score <= ?5 then 1 end), count(case when s.requeried then 1 end),
             min(t.created_at), max(t.created_at)
           from (${slice}) k cross join traces t on t.project_id = ?1 and t.session_id = k.key
           left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
           where true
           group by t.session_id
           on conflict (project_id, session_id) do update set user_id_hash = excluded.user_id_hash, traces = excluded.traces, scored = excluded.scored,
             negative = excluded.negative, requeried = excluded.requeried, first_at = excluded.first_at, last_at = excluded.last_at`,
        )
        .bind(...params, ctx.settings.badTraceScore),
    ]);
    const keys = (keyRows!.results as { key: string }[]).map((r) => r.key);
    return { cursor: nextCursor(ctx, keys, SESSIONS_PER_SLICE), counts: { sessions: keys.length } };
  },
};
