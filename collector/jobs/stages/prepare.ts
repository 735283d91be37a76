import { ATTRIBUTION_MAX_ANSWERS } from '../../loop/attribution.ts';
import { firstListedDay } from '../../loop/documents.ts';
import { FLOOD_CLOCK_TOLERANCE_MS, FLOOD_MIN_NEGATIVES, floodingSources, NEGATIVE_EXPLICIT, type SourceCount } from '../../loop/noise.ts';
import { restoreLeftIndexes } from '../../storage/deferred-indexes.ts';
import { CHUNK_DAY_KEY } from '../../storage/sql/chunk-signals.ts';
import { eventsReceivedSql } from '../../storage/sql/events-by-arrival.ts';
import { NEXT_RUN_NIGHT } from '../../storage/sql/next-run.ts';
import { notPurgedDaySql } from '../../storage/sql/purged-before.ts';
import { READ_ROWIDS_STATE, READ_ROWIDS_TABLES, RECORD_READ_ROWIDS_SQL, type ReadRowids } from '../../storage/sql/read-rowids.ts';
import { TURN_POSITION_SQL } from '../../storage/sql/session-turns.ts';
import { utcDaySql } from '../../storage/sql/utc-day.ts';
import { NAMES_CHUNK } from '../../storage/sql/verdict.ts';
import type { SliceResult, Stage, StageContext } from './stage.ts';

/** How far back the flooding rule counts a source's negatives, beyond the run's window. */
export const FLOOD_LOOKBACK_MS = 24 * 3_600_000;

/**
 * How far before its window a run looks for late writes. A request stamps what it stores before
 * its write lands, so a write still under way when the last run read its window can land there
 * after that read, with a stamp inside it. A request's one write lands within seconds of its
 * stamp; a minute leaves room.
 */
export const LATE_WRITE_MS = 60_000;

const TOUCHED_KEY = { trace: 't.trace_id', session: 't.session_id', day: utcDaySql('t.created_at') };

/**
 * Statements listing the given keys of the traces in the JSON array ?3 for the project ?1 and night
 * ?2: what a stage finds it changed outside its traces, for the stages after it.
 */
export const touchAlsoSql = (kinds: readonly (keyof typeof TOUCHED_KEY)[]) =>
  kinds.map(
    (kind) => `insert or ignore into loop_touched (project_id, night, kind, key)
      select distinct ?1, ?2, '${kind}', ${TOUCHED_KEY[kind]} from traces t
      where t.project_id = ?1 and t.trace_id in (select value from json_each(?3)) and ${TOUCHED_KEY[kind]} is not null`,
  );

/** Touched traces as SQL, for the project ?1 and night ?2. */
const TOUCHED_TRACES = `select key from loop_touched where project_id = ?1 and night = ?2 and kind = 'trace'`;

/**
 * Above this share of the project's traces touched, every chunk day with events is counted again
 * (read off the index of events naming a chunk alone) instead of the days of the touched traces'
 * events (each trace's events read): a night that touches a whole month would otherwise read every
 * event. So is every one when the project has no chunk days yet (its first run, or the first after
 * they were introduced).
 */
const ALL_CHUNK_DAYS_SHARE = 0.25;

/**
 * The keys of the chunk days (chunk, day of arrival) the events of the touched traces fall on, or
 * of all of them, for the project ?1 and night ?2: their signal counts are taken again (a chunk's
 * retrievals are added from the new answers alone).
 */
export const touchedChunkDaysSql = (all: boolean) =>
  all
    ? `select distinct ${CHUNK_DAY_KEY} as key from feedback_events e where e.project_id = ?1 and ${NAMES_CHUNK}`
    : `select distinct ${CHUNK_DAY_KEY} as key from (${TOUCHED_TRACES}) l
       cross join feedback_events e on e.project_id = ?1 and e.trace_id = l.key where ${NAMES_CHUNK}`;

/**
 * The days of the window documents are judged over (from ?3) whose worst answers must be counted
 * again (counted before they were kept, or one of them erased since), while their answers are
 * still stored: on the index of those days alone.
 */
export const UNLISTED_DAYS_SQL = `insert or ignore into loop_touched (project_id, night, kind, key)
  select distinct ?1, ?2, 'day', day from document_days indexed by document_days_unlisted
  where project_id = ?1 and day >= ?3 and ${notPurgedDaySql('day')} and worst is null`;

/** Negative explicit signals, as SQL: the events the flooding rule counts. */
const negative = (alias = '') => `${alias}signal_value < 0 and ${alias}signal_type in (${NEGATIVE_EXPLICIT.map((t) => `'${t}'`).join(', ')})`;

/**
 * Lists the traces this run must look at (new traces, traces with new events) and the keys they
 * touch, and finds the sources flooding negative feedback, once for all the slices that follow.
 */
export const prepare: Stage = {
  name: 'prepare',
  async slice(ctx, cursor) {
    // Three slices, each a bounded pass over the window: the traces, the flooding sources (and the
    // traces they sent to in the day looked back over), the keys all those traces touch.
    if (cursor === null) return touchTraces(ctx);
    if (cursor === KEYS) return touchKeys(ctx);
    // FLOODING, or the cursor of a run stopped here before the keys came last: they follow.
    return findFlooding(ctx);
  },
};

const FLOODING = 'flooding';
const KEYS = 'touch-keys';

/**
 * Statements touching the traces with events, then the traces, received in (?3, ?4] for the project
 * ?1 and night ?2, and stored after rowid ?5 of their table (0: whenever).
 */
const TOUCH_RECEIVED = [
  `insert or ignore into loop_touched (project_id, night, kind, key)
    select distinct ?1, ?2, 'trace', trace_id from (${eventsReceivedSql('e.trace_id', 'e.received_at > ?3 and e.received_at <= ?4 and e.rowid > ?5')})`,
  `insert or ignore into loop_touched (project_id, night, kind, key)
    select ?1, ?2, 'trace', trace_id from traces where project_id = ?1 and received_at > ?3 and received_at <= ?4 and rowid > ?5`,
];

/**
 * Statement touching, for the answers received in (?3, ?4] of the project ?1 and night ?2, or late
 * writes of the minute before it (received in (?5, ?3], stored after rowid ?6), the other
 * turns of their conversations whose verdicts read them: the turn before (the noise filter weighs
 * the question asked after a vote) and the turns after, up to as many answers as an attribution
 * window holds (an answer logged late joins the turns their signals are weighed against). Only
 * turns with events: the others have nothing to judge again. A conversation cut by the end of a
 * window is then judged as if it had arrived in one.
 */
const ARRIVED = '(received_at > ?3 and received_at <= ?4 or received_at > ?5 and received_at <= ?3 and rowid > ?6)';
const TOUCH_NEIGHBOUR_TURNS = `insert or ignore into loop_touched (project_id, night, kind, key)
  with ordered as (
    select trace_id, session_id, ${ARRIVED} as arrived, ${TURN_POSITION_SQL} as pos from traces
    where project_id = ?1 and session_id in (select session_id from traces where project_id = ?1 and ${ARRIVED})
  ),
  -- An answer arrived among the ones before it that its window holds, or just after it: a frame, not a join, at any volume.
  near as (
    select trace_id, max(arrived) over (partition by session_id order by pos rows between ${ATTRIBUTION_MAX_ANSWERS - 1} preceding and 1 following) as near
    from ordered
  )
  select ?1, ?2, 'trace', n.trace_id from near n
  where n.near and exists (select 1 from feedback_events e where e.project_id = ?1 and e.trace_id = n.trace_id)`;

/**
 * New traces and traces with new events, and the late writes of the last run's window: received in
 * its last minute, stored after that run read it (storage/sql/read-rowids.ts). First, the indexes
 * a run stopped in a bulk load left to build.
 */
async function touchTraces({ db, projectId, night, run }: StageContext): Promise<SliceResult> {
  const restoredIndexes = await restoreLeftIndexes(db, night);
  // Of two done runs with the same window end, the later had an empty window: the earlier read less far.
  const last = await db
    .prepare(
      `select state -> '$.${READ_ROWIDS_STATE}' as rowids from loop_runs where project_id = ? and status = 'done' and night < ? and window_to = ?
       order by night limit 1`,
    )
    .bind(projectId, night, run.windowFrom)
    .first<{ rowids: string | null }>();
  // A run that kept no record of its read (one from before it was kept) has every row of its last minute looked at again.
  const lastRead = (last?.rowids ? JSON.parse(last.rowids) : {}) as ReadRowids;
  const touch = (from: number, to: number, after: (table: (typeof READ_ROWIDS_TABLES)[number]) => number) =>
    TOUCH_RECEIVED.map((sql, i) => db.prepare(sql).bind(projectId, night, from, to, after(READ_ROWIDS_TABLES[i]!)));
  const [events, traces, lateEvents, lateTraces, neighbourTurns] = await db.batch([
    ...touch(run.windowFrom, run.windowTo, () => 0),
    ...touch(Math.max(0, run.windowFrom - LATE_WRITE_MS), run.windowFrom, (table) => lastRead[table] ?? 0),
    db.prepare(TOUCH_NEIGHBOUR_TURNS).bind(projectId, night, run.windowFrom, run.windowTo, Math.max(0, run.windowFrom - LATE_WRITE_MS), lastRead.traces ?? 0),
    db.prepare(RECORD_READ_ROWIDS_SQL).bind(projectId, night),
    // Items a run its night left unfinished took rows from and never recomputed, chunk days it
    // listed (all of them, when it was the first) and the answers it listed, this run does: among
    // those answers, ones outside its window that its assessing rescored (a signal attributed to
    // them, or moved off them), whose items and days it may not have reached.
    db
      .prepare(
        `insert or ignore into loop_touched (project_id, night, kind, key)
         select project_id, ?2, kind, key from loop_touched where project_id = ?1 and night < ?2 and kind in ('item', 'chunk_day', 'trace')`,
      )
      .bind(projectId, night),
    // Among them, the answers an erasure rescored since the last run (storage/sql/next-run.ts): taken now.
    db.prepare('delete from loop_touched where project_id = ? and night = ?').bind(projectId, NEXT_RUN_NIGHT),
  ]);
  return {
    cursor: FLOODING,
    counts: {
      touchedByEvents: events!.meta.changes,
      touchedByTraces: traces!.meta.changes,
      lateWrites: lateEvents!.meta.changes + lateTraces!.meta.changes,
      ...(neighbourTurns!.meta.changes > 0 && { touchedByNewTurns: neighbourTurns!.meta.changes }),
      ...(restoredIndexes > 0 && { restoredIndexes }),
    },
  };
}

/** The sessions and days of the touched traces, and the chunk days their events fall on: their aggregates are recomputed. */
async function touchKeys({ db, projectId, night, now }: StageContext): Promise<SliceResult> {
  const share = await db
    .prepare(
      `select (select count(*) from (${TOUCHED_TRACES})) * 1.0 / max(1, (select count(*) from traces where project_id = ?1)) as share,
         exists (select 1 from chunk_signal_days where project_id = ?1) as counted`,
    )
    .bind(projectId, night)
    .first<{ share: number; counted: number }>();
  const allChunkDays = (share?.share ?? 0) >= ALL_CHUNK_DAYS_SHARE || !share?.counted;
  await db.batch([
    ...(['session', 'day'] as const).map((kind) =>
      db
        .prepare(
          `insert or ignore into loop_touched (project_id, night, kind, key)
           select distinct ?1, ?2, '${kind}', ${TOUCHED_KEY[kind]} from (${TOUCHED_TRACES}) l cross join traces t on t.project_id = ?1 and t.trace_id = l.key
           where ${TOUCHED_KEY[kind]} is not null`,
        )
        .bind(projectId, night),
    ),
    db
      .prepare(`insert or ignore into loop_touched (project_id, night, kind, key) select ?1, ?2, 'chunk_day', key from (${touchedChunkDaysSql(allChunkDays)})`)
      .bind(projectId, night),
    db.prepare(UNLISTED_DAYS_SQL).bind(projectId, night, firstListedDay(now)),
  ]);
  return { cursor: null, counts: {} };
}

/**
 * Touches the traces the flooding sources sent events to in (?3, ?4], before the window: the rule
 * counts the day before it, so what a flood sent before the run that found it is assessed again
 * (and distrusted) with the rest. The sources as JSON arrays: sessions ?5, users ?6, addresses ?7.
 */
const TOUCH_FLOODED = `insert or ignore into loop_touched (project_id, night, kind, key)
  select distinct ?1, ?2, 'trace', e.trace_id
  from (${eventsReceivedSql('e.trace_id, e.session_id, e.ip_hash', 'e.received_at > ?3 and e.received_at <= ?4')}) e
  where e.session_id in (select value from json_each(?5)) or e.ip_hash in (select value from json_each(?7))
    or exists (select 1 from traces t where t.project_id = ?1 and t.trace_id = e.trace_id and t.user_id_hash in (select value from json_each(?6)))`;

/**
 * Over how long a source sent its negative signals, for the flooding rule: as the browser's clock
 * says, but never longer than from the first of their answers logged to the last of them received.
 * Each signal was given after its answer and before it arrived, so a source that dates its signals
 * hours apart while sending them within a minute still floods, and a backlog an offline outbox sends
 * at once keeps its real span. Answers dated after the signals arrived (a backend's clock ahead, a
 * simulation's) bound nothing.
 */
const CLIENT_SPAN = 'max(e.client_ts) - min(e.client_ts)';
const ARRIVAL_BOUND = `max(e.received_at) - min(t.created_at) + ${FLOOD_CLOCK_TOLERANCE_MS}`;
const FLOOD_SPAN = `max(0, case when ${ARRIVAL_BOUND} > 0 then min(${CLIENT_SPAN}, ${ARRIVAL_BOUND}) else ${CLIENT_SPAN} end)`;

/**
 * The sources flooding negative feedback, once for all the slices that follow. A source's negatives
 * are the answers it said failed, not its signals: a reader who votes an answer down, flags its
 * wrong sources and corrects it says one thing about one answer.
 */
async function findFlooding({ db, projectId, night, run }: StageContext): Promise<SliceResult> {
  const since = Math.max(0, run.windowFrom - FLOOD_LOOKBACK_MS);
  const to = run.windowTo;
  const [counts, total] = await db.batch([
    db
      .prepare(
        `select 'session' as kind, e.session_id as key, count(distinct e.trace_id) as negatives, ${FLOOD_SPAN} as spanMs
           from feedback_events e left join traces t on t.project_id = e.project_id and t.trace_id = e.trace_id
           where e.project_id = ?1 and e.received_at > ?2 and e.received_at <= ?3 and ${negative('e.')}
           group by e.session_id having count(distinct e.trace_id) >= ?4
         union all
         select 'user', t.user_id_hash, count(distinct e.trace_id), ${FLOOD_SPAN}
           from feedback_events e join traces t on t.project_id = e.project_id and t.trace_id = e.trace_id
           where e.project_id = ?1 and e.received_at > ?2 and e.received_at <= ?3 and t.user_id_hash is not null and ${negative('e.')}
           group by t.user_id_hash having count(distinct e.trace_id) >= ?4
         union all
         select 'ip', e.ip_hash, count(distinct e.trace_id), ${FLOOD_SPAN}
           from feedback_events e left join traces t on t.project_id = e.project_id and t.trace_id = e.trace_id
           where e.project_id = ?1 and e.received_at > ?2 and e.received_at <= ?3 and e.ip_hash is not null and ${negative('e.')}
           group by e.ip_hash having count(distinct e.trace_id) >= ?4`,
      )
      .bind(projectId, since, to, FLOOD_MIN_NEGATIVES),
    db
      .prepare(`select count(distinct trace_id) as n from feedback_events where project_id = ?1 and received_at > ?2 and received_at <= ?3 and ${negative()}`)
      .bind(projectId, since, to),
  ]);
  const flooding = floodingSources(counts!.results as SourceCount[], (total!.results[0] as { n: number }).n);
  let touchedByFlooding = 0;
  if (flooding.size > 0 && since < run.windowFrom) {
    const keysOf = (kind: SourceCount['kind']) =>
      JSON.stringify([...flooding.keys()].filter((id) => id.startsWith(`${kind}:`)).map((id) => id.slice(kind.length + 1)));
    const touched = await db.prepare(TOUCH_FLOODED).bind(projectId, night, since, run.windowFrom, keysOf('session'), keysOf('user'), keysOf('ip')).run();
    touchedByFlooding = touched.meta.changes;
  }
  return {
    cursor: KEYS,
    counts: { floodingSources: flooding.size, ...(touchedByFlooding > 0 && { touchedByFlooding }) },
    state: { flooding: Object.fromEntries(flooding) },
  };
}
