import { FOCUSED_DWELL_MS } from '../../../shared/thresholds.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { nextCursor, type SliceResult, type Stage, touchedSlice } from './stage.ts';

/** Sessions and chunks per slice; a day is one slice. */
const KEYS_PER_SLICE = 500;
const json = (x: unknown) => JSON.stringify(x);
const TRUSTED = `e.superseded = 0 and a.confidence >= ${LOW_CONFIDENCE}`;

/** A trace ranked this high by its last stage counts as shown first. */
export const TOP_RANKS = 3;

/** Per touched chunk: retrievals, and what users did with it when it was cited. */
export const chunks: Stage = {
  name: 'chunks',
  async slice(ctx, cursor): Promise<SliceResult> {
    const keys = await touchedSlice(ctx, cursor, 'chunk', KEYS_PER_SLICE);
    if (keys.length === 0) return { cursor: null, counts: {} };
    await ctx.db
      .prepare(
        `insert into chunk_stats (project_id, chunk_id, source_doc_id, retrieved, top_ranked, clicks, focused_dwells, dwell_ms, copies, wrong_source_flags, weighted_score, updated_at)
         select ?1, k.value, r.doc, r.retrieved, r.top, coalesce(s.clicks, 0), coalesce(s.focused, 0), coalesce(s.dwell, 0), coalesce(s.copies, 0), coalesce(s.flags, 0), s.weighted, ?2
         from json_each(?3) k
         join (
           select c.chunk_id, min(c.source_doc_id) as doc, count(distinct c.trace_id) as retrieved,
             count(distinct case when c.rank <= ${TOP_RANKS} and (c.stage = 'reranked' or not exists (
               select 1 from trace_chunks x where x.project_id = c.project_id and x.trace_id = c.trace_id and x.stage = 'reranked')) then c.trace_id end) as top
           from trace_chunks c where c.project_id = ?1 and c.chunk_id in (select value from json_each(?3)) group by c.chunk_id
         ) r on r.chunk_id = k.value
         left join (
           -- Found through the traces that retrieved the chunks (the trace index): an index on the
           -- chunk inside each event's detail would cost every insert on the write path.
           select json_extract(e.detail, '$.chunkId') as chunk_id,
             count(case when e.signal_type = 'citation_click' and ${TRUSTED} then 1 end) as clicks,
             count(case when e.signal_type = 'citation_dwell' and json_extract(e.detail, '$.ms') >= ${FOCUSED_DWELL_MS} and ${TRUSTED} then 1 end) as focused,
             sum(case when e.signal_type = 'citation_dwell' then json_extract(e.detail, '$.ms') else 0 end) as dwell,
             count(case when e.signal_type = 'copy_source' and ${TRUSTED} then 1 end) as copies,
             count(case when e.signal_type = 'wrong_source' and ${TRUSTED} then 1 end) as flags,
             sum(case when ${TRUSTED} and e.signal_value is not null then e.signal_value * a.confidence end)
               / sum(case when ${TRUSTED} and e.signal_value is not null then a.confidence end) as weighted
           from feedback_events e join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id
           where e.project_id = ?1
             and e.trace_id in (select trace_id from trace_chunks where project_id = ?1 and chunk_id in (select value from json_each(?3)))
             and json_extract(e.detail, '$.chunkId') in (select value from json_each(?3))
           group by 1
         ) s on s.chunk_id = k.value
         where true
         on conflict (project_id, chunk_id) do update set source_doc_id = excluded.source_doc_id, retrieved = excluded.retrieved, top_ranked = excluded.top_ranked,
           clicks = excluded.clicks, focused_dwells = excluded.focused_dwells, dwell_ms = excluded.dwell_ms, copies = excluded.copies,
           wrong_source_flags = excluded.wrong_source_flags, weighted_score = excluded.weighted_score, updated_at = excluded.updated_at`,
      )
      .bind(ctx.projectId, ctx.now, json(keys))
      .run();
    return { cursor: nextCursor(ctx, keys, KEYS_PER_SLICE), counts: { chunks: keys.length } };
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
           select ?1, c.source_doc_id, coalesce(c.source_doc_version, ''), ?2, count(distinct t.trace_id),
             count(distinct case when ${scored} then t.trace_id end),
             count(distinct case when ${scored} and s.weighted_score <= ?5 then t.trace_id end),
             count(distinct case when ${scored} and s.weighted_score >= ?6 then t.trace_id end),
             count(distinct case when s.requeried then t.trace_id end)
           from traces t join trace_chunks c on c.project_id = t.project_id and c.trace_id = t.trace_id
           left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
           where t.project_id = ?1 and t.created_at >= ?3 and t.created_at < ?4
           group by c.source_doc_id, coalesce(c.source_doc_version, '')`,
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
    const keys = await touchedSlice(ctx, cursor, 'session', KEYS_PER_SLICE);
    if (keys.length === 0) return { cursor: null, counts: {} };
    await ctx.db
      .prepare(
        `insert into session_stats (project_id, session_id, user_id_hash, traces, scored, negative, requeried, first_at, last_at)
         select ?1, t.session_id, max(t.user_id_hash), count(*), count(case when s.trusted_signals > 0 then 1 end),
           count(case when s.trusted_signals > 0 and s.weighted_score <= ?2 then 1 end), count(case when s.requeried then 1 end),
           min(t.created_at), max(t.created_at)
         from traces t left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
         where t.project_id = ?1 and t.session_id in (select value from json_each(?3))
         group by t.session_id
         on conflict (project_id, session_id) do update set user_id_hash = excluded.user_id_hash, traces = excluded.traces, scored = excluded.scored,
           negative = excluded.negative, requeried = excluded.requeried, first_at = excluded.first_at, last_at = excluded.last_at`,
      )
      .bind(ctx.projectId, ctx.settings.badTraceScore, json(keys))
      .run();
    return { cursor: nextCursor(ctx, keys, KEYS_PER_SLICE), counts: { sessions: keys.length } };
  },
};
