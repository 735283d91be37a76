import { TOP_RANKS } from '../../../shared/thresholds.ts';
import { DAY_MS } from '../../../shared/time.ts';
import { documentWindowAfter, EVIDENCE_TRACES } from '../../loop/documents.ts';
import { CHUNK_SIGNAL_COLUMNS, CHUNK_SIGNALS, chunkDaysOf } from '../../storage/sql/chunk-signals.ts';
import { clearlyBadSql } from '../../storage/sql/clear-scores.ts';
import { DAY_COUNTS, DOCUMENT_COUNTS, dayCountsSql, documentAnswersSql, documentCountsSql, withPurgedSql } from '../../storage/sql/day-counts.ts';
import { notPurgedDaySql } from '../../storage/sql/purged-before.ts';
import { sessionCountsSql } from '../../storage/sql/session-counts.ts';
import { assessedSql, EVENT_CHUNK, JOIN_VERDICT, NAMES_CHUNK } from '../../storage/sql/verdict.ts';
import { nextCursor, type SliceResult, type Stage, sliceKeysSql, sliceParams, touchedSlice } from './stage.ts';

/**
 * How many trace slices' worth of answers a retrievals slice adds: an answer is ten-odd chunk rows
 * read on its key, and most of a slice is the one write per distinct chunk, which larger slices
 * share (at full scale in SQLite, 20,000 answers take half a second and 2,000 a tenth: a month
 * caught up at once in 26 s against 58 s).
 */
const RETRIEVAL_SLICE_FACTOR = 10;
/** Sessions per slice: a few traces each. */
const SESSIONS_PER_SLICE = 5_000;

/**
 * Whether chunk row `c` was among the first its trace's last stage showed: stored with the row, or
 * for a row stored before it was (migration 0014), worked out from the trace's stages.
 */
const SHOWN_FIRST = `coalesce(c.top_ranked, c.rank <= ${TOP_RANKS} and (c.stage = 'reranked' or not exists (
  select 1 from trace_chunks x where x.project_id = c.project_id and x.trace_id = c.trace_id and x.stage = 'reranked')))`;

/**
 * The next answers the chunk aggregates have yet to count, after the cursor (?2), at most ?3, with
 * the project as ?1: on the index of pending ones, so a night reads its own answers only.
 */
export const pendingAnswersSql = `select trace_id as key from trace_stats where project_id = ?1 and retrievals_pending = 1 and trace_id > ?2 order by trace_id limit ?3`;

/**
 * Adds each new answer to the retrieval counts of the chunks it retrieved: running totals, so a
 * night reads its own answers' rows, not every row of every chunk they touched. The batch that adds
 * a slice's answers also marks them counted, so a slice run again (a cut run, a run left
 * unfinished and covered again by the next night's window) adds nothing twice.
 */
export const retrievals: Stage = {
  name: 'retrievals',
  async slice(ctx, cursor): Promise<SliceResult> {
    const size = ctx.tracesPerSlice * RETRIEVAL_SLICE_FACTOR;
    const params = [ctx.projectId, cursor ?? '', size] as const;
    const [keyRows] = await ctx.db.batch([
      ctx.db.prepare(pendingAnswersSql).bind(...params),
      ctx.db
        .prepare(
          `insert into chunk_stats (project_id, chunk_id, source_doc_id, retrieved, top_ranked, clicks, focused_dwells, dwell_ms, copies, wrong_source_flags, updated_at)
           select ?1, c.chunk_id, min(c.source_doc_id), count(distinct c.trace_id), count(distinct case when ${SHOWN_FIRST} then c.trace_id end), 0, 0, 0, 0, 0, ?4
           from (${pendingAnswersSql}) k cross join trace_chunks c indexed by sqlite_autoindex_trace_chunks_1 on c.project_id = ?1 and c.trace_id = k.key
           group by c.chunk_id
           on conflict (project_id, chunk_id) do update set source_doc_id = excluded.source_doc_id, retrieved = retrieved + excluded.retrieved,
             top_ranked = top_ranked + excluded.top_ranked, updated_at = excluded.updated_at`,
        )
        .bind(...params, ctx.now),
      ctx.db
        .prepare(`update trace_stats set retrievals_pending = 0 where project_id = ?1 and retrievals_pending = 1 and trace_id in (${pendingAnswersSql})`)
        .bind(...params),
    ]);
    const keys = (keyRows!.results as { key: string }[]).map((r) => r.key);
    return { cursor: nextCursor(ctx, keys, size), counts: { answers: keys.length } };
  },
};

/**
 * Counts again the signals of the chunk days `days` lists (SQL selecting `chunk_id` and `day`,
 * with the project as ?1 and where assessment reached as ?5): each from its events, a range of the
 * index of events naming a chunk (the unary plus: a key's text affinity would keep SQLite off that
 * expression index). A day left with no events goes. A day retention reached is left as it was
 * counted: what is left of its events is not all of them.
 */
export const chunkDaysSql = (days: string) => ({
  clear: `delete from chunk_signal_days where project_id = ?1 and (chunk_id, day) in (
    select chunk_id, day from (${days}) where ${notPurgedDaySql('day')})`,
  count: `insert into chunk_signal_days (project_id, chunk_id, day, ${Object.keys(CHUNK_SIGNALS).join(', ')})
   select ?1, k.chunk_id, k.day, ${CHUNK_SIGNAL_COLUMNS}
   from (${days}) k
   cross join feedback_events e on e.project_id = ?1 and ${EVENT_CHUNK} = +k.chunk_id
     and e.received_at >= unixepoch(k.day) * 1000 and e.received_at < (unixepoch(k.day) + 86400) * 1000
   ${JOIN_VERDICT}
   where ${NAMES_CHUNK} and ${assessedSql('?5')} and ${notPurgedDaySql('k.day')}
   group by k.chunk_id, k.day`,
});

/** Sets the signal counts of the chunks `days` lists (SQL selecting `chunk_id`) to the sum of their days, at ?5. */
export const chunkSignalsSql = (days: string) =>
  `update chunk_stats set (clicks, focused_dwells, dwell_ms, copies, wrong_source_flags, weighted_score, updated_at) = (
     select coalesce(sum(d.clicks), 0), coalesce(sum(d.focused_dwells), 0), coalesce(sum(d.dwell_ms), 0), coalesce(sum(d.copies), 0),
       coalesce(sum(d.wrong_source_flags), 0), sum(d.score_sum) / nullif(sum(d.score_weight), 0), ?5
     from chunk_signal_days d where d.project_id = ?1 and d.chunk_id = chunk_stats.chunk_id)
   where project_id = ?1 and chunk_id in (select chunk_id from (${days}))`;

/**
 * Per chunk day the events of a touched trace fall on (a new event can change the verdicts of its
 * trace's earlier ones): its signals counted again, then each of the slice's chunks summed over its days.
 */
export const chunks: Stage = {
  name: 'chunks',
  async slice(ctx, cursor): Promise<SliceResult> {
    const slice = sliceKeysSql('chunk_day');
    const days = chunkDaysOf(slice);
    const { clear, count } = chunkDaysSql(days);
    const params = sliceParams(ctx, cursor);
    const [keyRows] = await ctx.db.batch([
      ctx.db.prepare(slice).bind(...params),
      ctx.db.prepare(clear).bind(...params),
      ctx.db.prepare(count).bind(...params, ctx.run.windowTo),
      ctx.db.prepare(chunkSignalsSql(days)).bind(...params, ctx.now),
    ]);
    const keys = (keyRows!.results as { key: string }[]).map((r) => r.key);
    return { cursor: nextCursor(ctx, keys), counts: { chunkDays: keys.length } };
  },
};

/**
 * Per touched day of answers: the project's totals, and each document's counts and worst answers, per
 * set of its versions its answers cited (each answer counted once for the document). Each is
 * counted from the day's stored answers plus what its purged ones counted (retention keeps that), so
 * an answer imported with an old time adds to its day whether or not retention reached the others.
 */
export const days: Stage = {
  name: 'days',
  async slice(ctx, cursor): Promise<SliceResult> {
    const [day] = await touchedSlice(ctx, cursor, 'day', 1);
    if (!day) return { cursor: null, counts: {} };
    const start = Date.parse(`${day}T00:00:00Z`);
    const end = start + DAY_MS;
    // A day retention reached before purged counts were kept, still holding some of its answers, is
    // left as it was counted: what is left of its answers is not all it counted, nor only what it did not.
    const kept = await ctx.db.prepare('select 1 from day_stats where project_id = ? and day = ? and purged_traces is null').bind(ctx.projectId, day).first();
    if (kept) return { cursor: day, counts: { daysKeptAsCounted: 1 } };
    const { badTraceScore: bad, goodTraceScore: good } = ctx.settings;
    // Evidence against a document: an answer scored bad, or re-asked.
    const evidence = `(d.scored and (${clearlyBadSql('d.score', '?5')} or d.requeried))`;
    await ctx.db.batch([
      // Each document row back to what its purged answers counted, and gone when they counted none.
      ctx.db
        .prepare(
          `update document_days set ${DOCUMENT_COUNTS.map((c) => `${c} = purged_${c}`).join(', ')}, worst = '[]'
           where project_id = ? and day = ? and purged_traces > 0`,
        )
        .bind(ctx.projectId, day),
      ctx.db.prepare('delete from document_days where project_id = ? and day = ? and purged_traces = 0').bind(ctx.projectId, day),
      ctx.db
        .prepare(
          `insert into document_days (project_id, source_doc_id, source_doc_versions, day, ${DOCUMENT_COUNTS.join(', ')}, worst)
           with d as materialized (
             select d.trace_id, d.doc, d.versions, d.scored, d.score, d.requeried, ${evidence} as evidence
             from (${documentAnswersSql('t.project_id = ?1 and t.created_at >= ?3 and t.created_at < ?4')}) d
           ),
           -- Ranked among the evidence alone: a fraction of the answers, so the sort stays small.
           worst as (
             select doc, versions, json_group_array(json_array(score, trace_id)) as list from (
               select doc, versions, score, trace_id, row_number() over (partition by doc, versions order by score, trace_id) as place from d where evidence
             ) where place <= ?7 group by doc, versions
           )
           select ?1, c.doc, c.versions, ?2, ${DOCUMENT_COUNTS.map((n) => `c.${n}`).join(', ')},
             -- Kept only while documents are judged over the day.
             case when ?2 > ?8 then coalesce(w.list, '[]') else '[]' end
           from (select doc, versions, ${documentCountsSql('?5', '?6')} from d group by doc, versions) c
           left join worst w on w.doc = c.doc and w.versions = c.versions
           where true
           on conflict (project_id, source_doc_id, source_doc_versions, day) do update set ${withPurgedSql(DOCUMENT_COUNTS)}, worst = excluded.worst`,
        )
        .bind(ctx.projectId, day, start, end, bad, good, EVIDENCE_TRACES, documentWindowAfter(ctx.now)),
      ctx.db
        .prepare(
          `insert into day_stats (project_id, day, ${DAY_COUNTS.join(', ')})
           select ?1, ?2, ${dayCountsSql('?5')}
           from traces t left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
           where t.project_id = ?1 and t.created_at >= ?3 and t.created_at < ?4
           on conflict (project_id, day) do update set ${withPurgedSql(DAY_COUNTS)}`,
        )
        .bind(ctx.projectId, day, start, end, bad),
    ]);
    return { cursor: day, counts: { days: 1 } };
  },
};

/** Per touched session: its answers and how they went, with what its purged answers counted (retention keeps that). */
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
           select ?1, t.session_id, max(t.user_id_hash), ${sessionCountsSql('?5')}, min(t.created_at), max(t.created_at)
           from (${slice}) k cross join traces t on t.project_id = ?1 and t.session_id = k.key
           left join trace_stats s on s.project_id = t.project_id and s.trace_id = t.trace_id
           where true
           group by t.session_id
           on conflict (project_id, session_id) do update set user_id_hash = coalesce(excluded.user_id_hash, user_id_hash),
             traces = excluded.traces + purged_traces, scored = excluded.scored + purged_scored, negative = excluded.negative + purged_negative,
             requeried = excluded.requeried + purged_requeried, first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at)`,
        )
        .bind(...params, ctx.settings.badTraceScore),
    ]);
    const keys = (keyRows!.results as { key: string }[]).map((r) => r.key);
    return { cursor: nextCursor(ctx, keys, SESSIONS_PER_SLICE), counts: { sessions: keys.length } };
  },
};
