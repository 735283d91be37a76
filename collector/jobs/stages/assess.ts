import { isByBackend, type SignalType } from '../../../shared/signals.ts';
import { traceQueryKey } from '../../../shared/terms.ts';
import { ATTRIBUTION_MAX_ANSWERS, attribute, type NextQuestionSays, nextQuestions, type Turn } from '../../loop/attribution.ts';
import { assessTraceEvents, LOW_CONFIDENCE, type LoopEvent, type TraceContext } from '../../loop/noise.ts';
import { deferIndexes, restoreOwnIndexes } from '../../storage/deferred-indexes.ts';
import { jsonArrays } from '../../storage/sql/json-insert.ts';
import { TURN_POSITION_SQL } from '../../storage/sql/session-turns.ts';
import { stillStoredSql, storedTurnsOnlySql } from '../../storage/sql/still-stored.ts';
import { ASSESSED_STATE } from '../../storage/sql/verdict.ts';
import { TRACE_STATS_CONFLICT, traceStatsUpsert } from '../../storage/trace-stats-upsert.ts';
import { touchAlsoSql } from './prepare.ts';
import { BULK_LOAD_STATE, nextCursor, type SliceResult, type Stage, type StageContext, sliceKeysSql, sliceParams } from './stage.ts';
import { type CountedEvent, traceAggregate } from './trace-aggregate.ts';

interface TraceRow {
  trace_id: string;
  session_id: string | null;
  user_id_hash: string | null;
  turn_index: number | null;
  query: string;
  /** Only for a trace outside any session: the others' answers come with their sessions' turns. */
  answer: string | null;
  created_at: number;
  knowledge_base: string | null;
  intent: string | null;
  model: string | null;
}

interface EventRow {
  event_id: string;
  trace_id: string;
  session_id: string;
  signal_type: SignalType;
  signal_value: number | null;
  superseded: number;
  detail: string;
  client_ts: number;
  shown_ms: number | null;
  ip_hash: string | null;
  /** The trace its stored verdict counts it for; null when none is stored (it counts for its own). */
  counted_for: string | null;
  /** Why its stored verdict found its source flooding, if it did. */
  flooded: string | null;
}

const json = (x: unknown) => JSON.stringify(x);

/**
 * The noise filter and multi-turn attribution over the run's touched traces, then each affected
 * trace's aggregate: the seed's plain mean and the confidence-weighted score over trusted signals.
 * A slice's own traces are aggregated from the events it holds in memory (and the few events other
 * traces' turns attributed to them); only traces outside the slice that an event was attributed to
 * are recomputed in SQL.
 */
export const assess: Stage = {
  name: 'assess',
  async slice(ctx, cursor): Promise<SliceResult> {
    const { db, projectId, run, now } = ctx;
    const deferredIndexes = cursor === null ? await deferWhenBulk(ctx) : 0;
    const slice = sliceKeysSql('trace');
    const params = sliceParams(ctx, cursor);
    // One round trip for what the slice reads: its keys, traces, events and the turns around them, the
    // events of other traces counted for its traces, and its traces' current scores.
    const [keyRows, traceRows, eventRows, turnRows, movedRows, ownRows] = await db.batch([
      db.prepare(slice).bind(...params),
      db
        .prepare(
          `select trace_id, session_id, user_id_hash, turn_index, query, case when session_id is null then answer end as answer, created_at,
             knowledge_base, intent, model from traces
           where project_id = ?1 and trace_id in (${slice})`,
        )
        .bind(...params),
      db
        .prepare(
          `select event_id, trace_id, session_id, signal_type, signal_value, superseded, detail, client_ts, shown_ms, ip_hash,
             (select a.attributed_trace_id from event_assessments a where a.project_id = ?1 and a.event_id = e.event_id) as counted_for,
             (select r.value ->> 'reason' from event_assessments a, json_each(a.rules) r
               where a.project_id = ?1 and a.event_id = e.event_id and r.value ->> 'rule' = 'flooding') as flooded
           from feedback_events e where project_id = ?1 and trace_id in (${slice})`,
        )
        .bind(...params),
      db
        .prepare(
          // Around each trace, what its attribution window can hold and the turn after it, whose question
          // says how it went: never a whole session, which regenerating can make as long as it likes.
          `with ordered as (
             select trace_id, session_id, ${TURN_POSITION_SQL} as pos
             from traces where project_id = ?1 and session_id in (select t.session_id from (${slice}) k cross join traces t on t.project_id = ?1 and t.trace_id = k.key)
           ),
           own as (select session_id, pos from ordered where trace_id in (${slice}))
           select o.session_id, o.trace_id, o.pos, t.turn_index, t.query, t.answer, t.created_at
           from ordered o join traces t on t.project_id = ?1 and t.trace_id = o.trace_id
           where exists (select 1 from own w where w.session_id = o.session_id and o.pos between w.pos - ${ATTRIBUTION_MAX_ANSWERS - 1} and w.pos + 1)
           order by o.session_id, o.pos`,
        )
        .bind(...params),
      db
        .prepare(
          // On the index of events counted for another trace than their own; the slice's own events are assessed again below.
          `select a.attributed_trace_id as traceId, e.signal_type as signalType, e.signal_value as signalValue, e.superseded, a.confidence
           from (${slice}) k cross join event_assessments a on a.project_id = ?1 and a.attributed_trace_id = k.key
           join feedback_events e on e.project_id = ?1 and e.event_id = a.event_id
           where a.attributed_trace_id <> a.trace_id and a.trace_id not in (${slice})`,
        )
        .bind(...params),
      db
        .prepare(
          // As the run first found it: an earlier slice may have rescored it since (loop_trace_history).
          `select trace_id, query_key, weighted_score from (
             select k.key as trace_id, iif(h.trace_id is null, s.query_key, h.query_key) as query_key,
               iif(h.trace_id is null, s.weighted_score, h.weighted_score) as weighted_score
             from (${slice}) k left join loop_trace_history h on h.project_id = ?1 and h.night = ?2 and h.trace_id = k.key
             left join trace_stats s on s.project_id = ?1 and s.trace_id = k.key)
           where weighted_score is not null`,
        )
        .bind(...params),
    ]);
    const ids = (keyRows!.results as { key: string }[]).map((r) => r.key);
    // The whole window is assessed: readers may take an event without a verdict row as plain.
    if (ids.length === 0)
      return { cursor: null, counts: await bulkCounts(ctx, deferredIndexes, true), state: { [ASSESSED_STATE]: true, ...bulkState(deferredIndexes) } };
    const traces = new Map((traceRows!.results as TraceRow[]).map((t) => [t.trace_id, t]));
    // Each trace's question key, worked out once: the history, the noise filter and the aggregate use it.
    const keyOf = new Map([...traces.values()].map((t) => [t.trace_id, traceQueryKey(t.query, t.trace_id)]));
    const rawEvents = eventRows!.results as EventRow[];
    const events = rawEvents.map(toLoopEvent);
    const ipHashes = new Map(rawEvents.map((e) => [e.event_id, e.ip_hash]));
    const countedFor = new Map(rawEvents.flatMap((e) => (e.counted_for === null ? [] : [[e.event_id, e.counted_for] as const])));
    const flooding = new Map(Object.entries((run.state.flooding ?? {}) as Record<string, string>));
    const turnList = turnRows!.results as TurnRow[];
    const stretchOf = conversationStretches(turnList);
    // Per stretch of conversation, what each next question says about the turn before: once for all its signals.
    const nextSaysOf = new Map<Turn[], NextQuestionSays>();
    const nextSaysIn = (stretch: Turn[]) => {
      let said = nextSaysOf.get(stretch);
      if (!said) nextSaysOf.set(stretch, (said = nextQuestions(stretch)));
      return said;
    };
    // An answer's text is read once, with its session's turns (it is the longest column of a slice).
    const answers = new Map(turnList.map((t) => [t.trace_id, t.answer]));
    const historyOf = await queryHistory(db, projectId, ctx.night, keyOf, ownRows!.results as OwnScore[]);

    const byTrace = new Map<string, LoopEvent[]>();
    for (const e of events) {
      const list = byTrace.get(e.traceId);
      if (list) list.push(e);
      else byTrace.set(e.traceId, [e]);
    }
    // What each trace's aggregate counts: its own events that stay with it, those other turns gave it.
    const counted = new Map<string, CountedEvent[]>();
    const count = (traceId: string, e: CountedEvent) => {
      const list = counted.get(traceId);
      if (list) list.push(e);
      else counted.set(traceId, [e]);
    };
    for (const m of movedRows!.results as (Omit<CountedEvent, 'superseded'> & { traceId: string; superseded: number })[])
      count(m.traceId, { ...m, superseded: m.superseded === 1 });
    // A verdict a rule or the attribution changed is stored, sent as one array in the insert's column
    // order; every other event has the base verdict, which is not stored (storage/sql/verdict.ts):
    // a row an earlier run left for it goes.
    const rows: [eventId: string, traceId: string, attributedTraceId: string, confidence: number, rules: unknown, attribution: unknown][] = [];
    const unstored: string[] = [];
    let plain = 0;
    // Traces outside the slice that an event is now attributed to, or was until now: recomputed in
    // SQL from every verdict, and listed with their days for the stages after this one (mining).
    const elsewhere = new Map<string, string>();
    // Such traces past the turns read (counted for by a window without the bound): looked up below.
    const leftUnread: string[] = [];
    let lowConfidence = 0;
    let moved = 0;
    for (const [traceId, evs] of byTrace) {
      const trace = traces.get(traceId);
      const session = trace?.session_id ? stretchOf.get(traceId) : undefined;
      const assessments = assessTraceEvents(evs, {
        answer: trace ? (trace.answer ?? answers.get(traceId) ?? '') : '',
        userIdHash: trace?.user_id_hash ?? null,
        flooding,
        ipHashOf: (eventId) => ipHashes.get(eventId) ?? null,
        queryHistory: trace ? historyOf(traceId) : undefined,
        // Only a thumbs-down asks how the next question follows its answer, and a bounce whether there is one.
        nextQuestion: session && evs.some(asksNextQuestion) ? nextQuestionAfter(session, traceId, nextSaysIn(session)) : undefined,
      });
      const byId = new Map(evs.map((e) => [e.eventId, e]));
      for (const a of assessments) {
        const e = byId.get(a.eventId)!;
        let attributedTraceId = traceId;
        let attribution = null;
        if ((e.signalValue ?? 0) < 0 && !e.superseded && !isByBackend(e.signalType) && session && a.confidence >= LOW_CONFIDENCE) {
          const text = typeof e.detail.text === 'string' ? e.detail.text : undefined;
          const found = attribute({ traceId, clientTs: e.clientTs, ...(text && { text }) }, session, nextSaysIn(session));
          if (found.scores.length) {
            attributedTraceId = found.traceId;
            attribution = { reason: found.reason, scores: found.scores };
            if (found.traceId !== traceId) {
              moved++;
              if (!traces.has(found.traceId))
                elsewhere.set(found.traceId, traceQueryKey(session.find((t) => t.traceId === found.traceId)!.query, found.traceId));
            }
          }
        }
        // A trace outside the slice the event counted for until now: it counts without the event.
        const before = countedFor.get(a.eventId);
        if (before !== undefined && before !== attributedTraceId && !traces.has(before)) {
          const left = stretchOf.get(before)?.find((t) => t.traceId === before);
          if (left) elsewhere.set(left.traceId, traceQueryKey(left.query, left.traceId));
          else leftUnread.push(before);
        }
        if (a.confidence < LOW_CONFIDENCE) lowConfidence++;
        count(attributedTraceId, { signalType: e.signalType, signalValue: e.signalValue, superseded: e.superseded, confidence: a.confidence });
        if (a.rules.length > 0 || attribution !== null) rows.push([a.eventId, traceId, attributedTraceId, a.confidence, a.rules, attribution]);
        else {
          plain++;
          if (countedFor.has(a.eventId)) unstored.push(a.eventId);
        }
      }
    }
    if (leftUnread.length) {
      const { results } = await db
        .prepare('select trace_id, query from traces where project_id = ?1 and trace_id in (select value from json_each(?2))')
        .bind(projectId, json([...new Set(leftUnread)]))
        .all<{ trace_id: string; query: string }>();
      for (const t of results) elsewhere.set(t.trace_id, traceQueryKey(t.query, t.trace_id));
    }
    const stats = ids
      .filter((id) => traces.has(id))
      .map((id) => {
        const t = traces.get(id)!;
        const s = traceAggregate(counted.get(id) ?? []);
        return [
          id,
          keyOf.get(id)!,
          t.created_at,
          t.knowledge_base,
          t.intent,
          t.model,
          s.score,
          s.weightedScore,
          s.liveSignals,
          s.explicitSignals,
          s.implicitSignals,
          s.trustedSignals,
          s.confidence,
          s.requeried ? 1 : 0,
        ];
      });
    const rescoredIds = json([...elsewhere.keys()]);
    const rescoredElsewhere = jsonArrays([...elsewhere].map(([traceId, key]) => ({ traceId, queryKey: key })));
    await db.batch([
      // First, while their scores are still as the run found them, each answer's own score: those
      // outside the slice that it rescores, for their own slices, and the slice's own, for a slice
      // run again after its writes landed but not its cursor (the invocation ended in between).
      db
        .prepare(
          `insert or ignore into loop_trace_history (project_id, night, trace_id, query_key, weighted_score)
           select ?1, ?2, k.key, s.query_key, s.weighted_score
           from (select key from (${slice}) union all select value from json_each(?5)) k
           left join trace_stats s on s.project_id = ?1 and s.trace_id = k.key`,
        )
        .bind(...params, rescoredIds),
      ...rescoredElsewhere.map((part) => keepFirstFoundTotals(db, projectId, ctx.night, part)),
      ...jsonArrays(rows).map((part) =>
        db
          .prepare(`${ASSESSMENTS_UPSERT} select ?1, v.value ->> 0, v.value ->> 1, ${ATTRIBUTED_STILL_STORED}, v.value ->> 3, v.value -> 4, ${SCORES_STILL_STORED}, ?2
             from json_each(?3) v where ${stillStoredSql('v.value ->> 1')} ${ASSESSMENTS_CONFLICT}`)
          .bind(projectId, now, part),
      ),
      ...jsonArrays(unstored).map((part) =>
        db.prepare('delete from event_assessments where project_id = ?1 and event_id in (select value from json_each(?2))').bind(projectId, part),
      ),
      ...jsonArrays(stats).map((part) =>
        db
          .prepare(
            `insert into trace_stats (project_id, trace_id, query_key, created_at, knowledge_base, intent, model, score, weighted_score, live_signals,
               explicit_signals, implicit_signals, trusted_signals, confidence, requeried, retrievals_pending, updated_at)
             select ?1, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8,
               value ->> 9, value ->> 10, value ->> 11, value ->> 12, value ->> 13, 1, ?2
             from json_each(?3) where ${stillStoredSql('value ->> 0')} ${TRACE_STATS_CONFLICT}`,
          )
          .bind(projectId, now, part),
      ),
      ...rescoredElsewhere.map((part) => traceStatsUpsert(db, projectId, now, { list: part, until: run.windowTo })),
      ...(elsewhere.size > 0 ? touchAlsoSql(['trace', 'day']).map((sql) => db.prepare(sql).bind(projectId, ctx.night, rescoredIds)) : []),
    ]);
    const next = nextCursor(ctx, ids);
    return {
      cursor: next,
      counts: {
        ...(await bulkCounts(ctx, deferredIndexes, next === null)),
        traces: ids.length,
        events: rows.length + plain,
        stored: rows.length,
        lowConfidence,
        attributedElsewhere: moved,
        scored: stats.length + elsewhere.size,
      },
      state: { ...(next === null && { [ASSESSED_STATE]: true }), ...bulkState(deferredIndexes) },
    };
  },
};

/** The trace aggregates' indexes in another order than trace ids: a bulk load builds them again at its end. */
const OUT_OF_ORDER_INDEXES = ['trace_stats_score', 'trace_stats_query', 'trace_stats_explicit'];

/**
 * Defers OUT_OF_ORDER_INDEXES when the run touches enough traces (stage.ts); answers how many. The
 * share is of the whole table, every project's rows, which building an index again reads: its
 * largest rowid, which deletions leave high, errs towards not deferring.
 */
async function deferWhenBulk({ db, projectId, night, bulk }: StageContext): Promise<number> {
  const row = await db
    .prepare(
      `select (select count(*) from loop_touched where project_id = ?1 and night = ?2 and kind = 'trace') as touched,
         (select coalesce(max(rowid), 0) from trace_stats) as stored`,
    )
    .bind(projectId, night)
    .first<{ touched: number; stored: number }>();
  if (!row || row.touched < bulk.fromTraces || row.touched < bulk.share * row.stored) return 0;
  const [kept] = await db.batch(deferIndexes(db, { projectId, night }, OUT_OF_ORDER_INDEXES));
  // What this run deferred: an index another run deferred first stays that run's to build.
  return kept!.meta.changes;
}

const bulkState = (deferredIndexes: number) => (deferredIndexes > 0 ? { [BULK_LOAD_STATE]: true } : {});

/** The last slice builds again what the first deferred; the counts name only what happened. */
async function bulkCounts({ db, projectId, night }: StageContext, deferredIndexes: number, last: boolean): Promise<Record<string, number>> {
  const restoredIndexes = last ? await restoreOwnIndexes(db, { projectId, night }) : 0;
  return { ...(deferredIndexes > 0 && { deferredIndexes }), ...(restoredIndexes > 0 && { restoredIndexes }) };
}

/**
 * A verdict row's attributed trace and attribution as written, from the slice's array `v.value`: a
 * turn erased while the slice ran is neither counted for nor named (the event stays with its own).
 */
const ATTRIBUTED_STILL_STORED = `case when ${stillStoredSql('v.value ->> 2')} then v.value ->> 2 else v.value ->> 1 end`;
const SCORES_STILL_STORED = `case when json_type(v.value, '$[5]') = 'object' then ${storedTurnsOnlySql('v.value -> 5', "v.value, '$[5].scores'")} else v.value -> 5 end`;

const ASSESSMENTS_UPSERT = `insert into event_assessments (project_id, event_id, trace_id, attributed_trace_id, confidence, rules, attribution, assessed_at)`;
const ASSESSMENTS_CONFLICT = `on conflict (project_id, event_id) do update set attributed_trace_id = excluded.attributed_trace_id, confidence = excluded.confidence,
  rules = excluded.rules, attribution = excluded.attribution, assessed_at = excluded.assessed_at`;

function toLoopEvent(r: EventRow): LoopEvent {
  return {
    eventId: r.event_id,
    traceId: r.trace_id,
    sessionId: r.session_id,
    signalType: r.signal_type,
    signalValue: r.signal_value,
    detail: JSON.parse(r.detail) as Record<string, unknown>,
    clientTs: r.client_ts,
    superseded: r.superseded === 1,
    shownMs: r.shown_ms,
    ...(r.flooded !== null && { floodedBefore: r.flooded }),
  };
}

interface TurnRow {
  session_id: string;
  trace_id: string;
  /** Its place in its session's conversation, from 1. */
  pos: number;
  turn_index: number | null;
  query: string;
  answer: string;
  created_at: number;
}

/**
 * The stretches of conversation read, in turn order (rows come in that order), by the id of each
 * trace in them. Two traces far apart in one session read two stretches, and attribution never
 * looks across the gap between them.
 */
function conversationStretches(rows: readonly TurnRow[]): Map<string, Turn[]> {
  const out = new Map<string, Turn[]>();
  let stretch: Turn[] = [];
  let last: TurnRow | undefined;
  for (const r of rows) {
    if (!last || last.session_id !== r.session_id || r.pos !== last.pos + 1) stretch = [];
    stretch.push({ traceId: r.trace_id, query: r.query, answer: r.answer, at: r.created_at, turnIndex: r.turn_index });
    out.set(r.trace_id, stretch);
    last = r;
  }
  return out;
}

/** The signals the noise filter reads the next question of their answer's conversation for. */
const asksNextQuestion = (e: LoopEvent) => e.signalType === 'thumbs_down' || e.signalType === 'bounce';

/** The question asked after `traceId` in its stretch of conversation, and how it follows that answer. */
function nextQuestionAfter(stretch: readonly Turn[], traceId: string, nextSays: NextQuestionSays): TraceContext['nextQuestion'] {
  const own = stretch.findIndex((t) => t.traceId === traceId);
  const next = own < 0 ? undefined : stretch[own + 1];
  return next && { query: next.query, at: next.at, follows: nextSays(own) };
}

/** Takes the totals of the keys `keys` selects (`?1` the project, `?2` the night) unless the run took them already. */
const firstFoundTotalsSql = (keys: string) =>
  `insert or ignore into loop_query_history (project_id, night, query_key, traces, total)
   select ?1, ?2, k.key, coalesce(q.traces, 0), coalesce(q.total, 0) from (${keys}) k left join query_scores q on q.project_id = ?1 and q.query_key = k.key`;

/**
 * Before a slice rescores answers outside it (`list`: trace ids and the keys they will be stored
 * under), keeps the totals of their keys, old and new, as the slices still to come weigh them
 * (each answer's own score, which its own slice subtracts from them, is kept with the slice's).
 */
const keepFirstFoundTotals = (db: D1Database, projectId: string, night: string, list: string): D1PreparedStatement =>
  db
    .prepare(
      firstFoundTotalsSql(
        `select v.value ->> 'queryKey' as key from json_each(?3) v
         union select s.query_key from json_each(?3) v join trace_stats s on s.project_id = ?1 and s.trace_id = v.value ->> 'traceId'`,
      ),
    )
    .bind(projectId, night, list);

interface OwnScore {
  trace_id: string;
  query_key: string;
  weighted_score: number;
}

/**
 * How the other answers to a slice trace's question were judged, as the run first found them:
 * count and mean weighted score. Each key's running totals (`query_scores`, kept in step with
 * `trace_stats`: a popular question has many thousands of answers, which summing again for every
 * slice would read), as the first slice that asked took them (`loop_query_history`), less the
 * trace's own score as the run found it (`own`): the same figures whichever slice the trace falls in.
 */
async function queryHistory(db: D1Database, projectId: string, night: string, keyOf: ReadonlyMap<string, string>, own: readonly OwnScore[]) {
  // A slice's keys in parts D1 takes as one value: 2,000 long questions in Chinese come to megabytes.
  // A key an answer's score was stored under before is taken too: the slice's writes move it from there.
  const parts = jsonArrays([...new Set([...keyOf.values(), ...own.map((r) => r.query_key)])]);
  const read = await db.batch<{ query_key: string; n: number; total: number }>(
    parts.flatMap((keys) => [
      db
        // Every key asked, none scored yet too: a key first scored by this slice has no history tonight.
        .prepare(firstFoundTotalsSql('select value as key from json_each(?3)'))
        .bind(projectId, night, keys),
      db
        .prepare(
          'select query_key, traces as n, total from loop_query_history where project_id = ?1 and night = ?2 and query_key in (select value from json_each(?3))',
        )
        .bind(projectId, night, keys),
    ]),
  );
  // Taken when a slice first needs the key, or before a slice rescores an answer outside it
  // (`keepFirstFoundTotals`; that answer's score as found is kept with the slice's own).
  const totals = new Map(read.flatMap((r) => r.results).map((r) => [r.query_key, r]));
  const ownScores = new Map(own.map((r) => [r.trace_id, r]));
  return (traceId: string): { traces: number; meanScore: number } | undefined => {
    const key = keyOf.get(traceId);
    const t = key === undefined ? undefined : totals.get(key);
    if (!t) return undefined;
    // Its stored score counts in its key's totals only under the key it was stored with.
    const mine = ownScores.get(traceId);
    const counted = mine !== undefined && mine.query_key === key;
    const n = t.n - (counted ? 1 : 0);
    return n > 0 ? { traces: n, meanScore: (t.total - (counted ? mine.weighted_score : 0)) / n } : undefined;
  };
}
