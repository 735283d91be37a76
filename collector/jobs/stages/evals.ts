import { traceQueryKey } from '../../../shared/terms.ts';
import { EVAL_LAYERS, type EvalLayer, isDisputed, isHeldOut, isoWeek, MAX_EVAL_ITEMS, REPLAY_ITEMS, REPLAY_MIN_SCORE } from '../../loop/eval-sets.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { LATER_NIGHT_DONE_SQL } from '../../storage/loop-runs.ts';
import { clearlyBadSql, clearlyGoodSql, clearlyJudgedSql } from '../../storage/sql/clear-scores.ts';
import { focusedDwellSql } from '../../storage/sql/focused-dwell.ts';
import { jsonArrays } from '../../storage/sql/json-insert.ts';
import { assessedSql, attributedEventsSql, EVENT_CHUNK, JOIN_VERDICT, NAMES_CHUNK, VERDICT } from '../../storage/sql/verdict.ts';
import { latestTraceOfKeys } from '../../storage/trace-stats.ts';
import type { SliceResult, Stage, StageContext } from './stage.ts';

interface Item {
  query: string;
  queryKey: string;
  traceId: string;
  judgements: Record<string, number>;
  source: string;
}

/** One (question, chunk) label as the SQL below reads it. */
interface Label {
  query_key: string;
  chunk_id: string;
  relevance: 0 | 1;
}

interface Labels {
  judgements: Record<string, number>;
  /** Where they came from: review, feedback or both; empty when the question has no labels. */
  sources: string[];
}

/** A question's labels as first read in this build, to be kept in eval_labels for the layers after. */
interface ReadLabels extends Labels {
  queryKey: string;
}

/**
 * Rows read per statement while looking for held-out questions: the stage holds one page and the
 * items it keeps (at most MAX_EVAL_ITEMS a layer), never every label of the project, which grows
 * with traffic (a million traces held millions of them).
 */
const PAGE = 500;
/** The page size: smaller when the run's slices are (tests cut runs between small slices). */
const pageSize = (ctx: StageContext) => Math.min(PAGE, ctx.tracesPerSlice);

/** Pages one slice reads at most: a slice stays around a second or two at a million traces. */
const PAGES_PER_SLICE = 4;

/**
 * Where the stage stands, kept as the run's cursor: the layer being built, how many items it has
 * and where its list continues (echo reads two lists: questions with reviewed labels, then every
 * answered question). The items found so far are in eval_items, unseen until the week's sets are
 * written; a page read again (an invocation that stopped before saving its cursor) replaces its own.
 */
type Cursor = { have: number } & (
  | { layer: 'echo'; list: 'reviewed' | 'answered'; after: string | null }
  | { layer: 'variant'; receivedAt: number; eventId: string }
  | { layer: 'conflict'; after: string | null }
  | { layer: 'replay' }
);

const FIRST: Record<EvalLayer, Cursor> = {
  echo: { layer: 'echo', have: 0, list: 'reviewed', after: null },
  variant: { layer: 'variant', have: 0, receivedAt: -1, eventId: '' },
  conflict: { layer: 'conflict', have: 0, after: null },
  replay: { layer: 'replay', have: 0 },
};

/** Where a layer's list continues. */
type Continue = DistributiveOmit<Cursor, 'have'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** One page of a layer: the items it adds, where the layer continues (null: the layer is done) and the labels it read first. */
interface Page {
  items: Item[];
  next: Continue | null;
  read: ReadLabels[];
}

/**
 * Builds this week's eval sets once (a week's version, once written, is frozen): labels from
 * answered review items and clear explicit feedback, on held-out queries only. Each layer reads
 * its candidates page by page in a fixed order and stops once it has MAX_EVAL_ITEMS; a slice reads
 * a few pages and stores what they found, and the slice that finishes the last layer writes the
 * week's sets, so a run cut between slices ends where an uncut one does.
 */
export const evals: Stage = {
  name: 'evals',
  async slice(ctx, cursor): Promise<SliceResult> {
    const { db, projectId, night, now } = ctx;
    const version = isoWeek(night);
    let at: Cursor | null;
    // Also on a later slice: the last one, run again after its writes landed but not its cursor,
    // would read pages again from what changed since, under sets already frozen.
    const done = await db.prepare('select 1 from eval_sets where project_id = ? and version = ? limit 1').bind(projectId, version).first();
    if (done) return { cursor: null, counts: { frozen: 1 } };
    if (cursor === null) {
      // A missed night run after a later one (`?at=`), in a week left without sets: built now, they
      // would stand for that week with today's labels. The later nights' sets are the ones used.
      if (await db.prepare(LATER_NIGHT_DONE_SQL).bind(projectId, night).first())
        return { cursor: null, counts: { laterNightDone: 1 }, note: 'left to the later nights: a later night is done' };
      // What a run of the week cut short on an earlier night left: this run builds the sets again.
      await db.batch([
        db.prepare('delete from eval_items where project_id = ? and version = ?').bind(projectId, version),
        db.prepare('delete from eval_labels where project_id = ?').bind(projectId),
      ]);
      at = FIRST.echo;
    } else at = JSON.parse(cursor) as Cursor;

    const counts: Record<string, number> = {};
    for (let pages = 0; at && pages < PAGES_PER_SLICE; pages++) {
      const layer: EvalLayer = at.layer;
      const have: number = at.have;
      const page: Page = await nextPage(ctx, at, version, MAX_EVAL_ITEMS - have);
      await saveItems(ctx, layer, version, have, page);
      if (page.items.length) counts[layer] = (counts[layer] ?? 0) + page.items.length;
      const following: EvalLayer | undefined = EVAL_LAYERS[EVAL_LAYERS.indexOf(layer) + 1];
      at = page.next ? { ...page.next, have: have + page.items.length } : following ? FIRST[following] : null;
    }
    if (at) return { cursor: JSON.stringify(at), counts };
    await db.batch([
      ...EVAL_LAYERS.map((layer) =>
        db
          .prepare(
            `insert or ignore into eval_sets (project_id, layer, version, items, created_at)
             select ?1, ?2, ?3, count(*), ?4 from eval_items where project_id = ?1 and layer = ?2 and version = ?3`,
          )
          // At the night's moment, as its model and health snapshot are: a night run with `?at=` is dated then.
          .bind(projectId, layer, version, now),
      ),
      db.prepare('delete from eval_labels where project_id = ?').bind(projectId),
    ]);
    return { cursor: null, counts };
  },
};

/**
 * A page's items after the layer's `have` ones, in place of any an earlier reading of the page
 * stored, and the labels it read first (a page read again finds them stored and reads the same).
 */
async function saveItems({ db, projectId }: StageContext, layer: EvalLayer, version: string, have: number, { items, read }: Page) {
  const rows = items.map((item, i) => ({ ...item, position: have + i }));
  // In parts: items with their labels can outgrow the largest value D1 binds (SQLITE_TOOBIG at a million traces).
  await db.batch([
    db.prepare('delete from eval_items where project_id = ? and layer = ? and version = ? and position >= ?').bind(projectId, layer, version, have),
    ...jsonArrays(rows).map((part) =>
      db
        .prepare(
          `insert or ignore into eval_items (project_id, layer, version, position, query, query_key, trace_id, judgements, source)
           select ?1, ?2, ?3, value ->> 'position', value ->> 'query', value ->> 'queryKey', value ->> 'traceId', value -> 'judgements', value ->> 'source'
           from json_each(?4)`,
        )
        .bind(projectId, layer, version, part),
    ),
    ...jsonArrays(read).map((part) =>
      db
        .prepare(
          `insert or ignore into eval_labels (project_id, query_key, judgements, sources)
           select ?1, value ->> 'queryKey', value -> 'judgements', value -> 'sources' from json_each(?2)`,
        )
        .bind(projectId, part),
    ),
  ]);
}

/** The keys of `?2` (a JSON array) whose labels this build has not read yet. */
const UNREAD_KEYS = `(select value from json_each(?2) where not exists (select 1 from eval_labels l where l.project_id = ?1 and l.query_key = value))`;

/**
 * Explicit feedback's label for each (question, chunk) pair, one row per pair: a trusted
 * wrong-source flag makes the chunk not relevant, whatever else users did with it; otherwise a
 * click, focused reading or copy of it on a clearly good answer makes it relevant. From the
 * page's keys to their answers and their events (cross joins keep that order; the unary plus keeps
 * SQLite off the type index): the other way round, SQLite reads every event that names a chunk for
 * each page. Only answers with explicit signals are read, on their own index: a wrong-source flag
 * is one, counted for the answer it is attributed to, and engagement counts only beside one.
 */
export const FEEDBACK_LABELS = `select query_key, chunk_id, min(signal_type <> 'wrong_source') as relevance
  from (${attributedEventsSql({
    from: `${UNREAD_KEYS} k cross join trace_stats s on s.project_id = ?1 and s.query_key = k.value and s.explicit_signals > 0`,
    traceId: 's.trace_id',
    columns: `s.query_key, ${EVENT_CHUNK} as chunk_id, e.signal_type`,
    until: '?5',
    where: `${NAMES_CHUNK} and ${VERDICT.confidence} >= ?3
      and +e.signal_type in ('wrong_source', 'citation_click', 'citation_dwell', 'copy_source') and e.superseded = 0
      and (e.signal_type <> 'citation_dwell' or ${focusedDwellSql()})
      and (e.signal_type = 'wrong_source' or (${clearlyGoodSql('s.weighted_score', '?4')} and s.explicit_signals > 0))`,
  })})
  group by query_key, chunk_id`;

/**
 * The labels of some held-out questions, in their order (only those with labels): the reviewers'
 * verdicts first, unless disputed (see `isDisputed`), then the users' clearest feedback. A question
 * is read through its answers once per build, the first time a layer lists it (a popular question
 * has thousands of answers, and every layer lists it); `read` holds those first readings, for
 * `saveItems` to keep.
 */
async function labelsOf({ db, projectId, settings, run }: StageContext, keys: readonly string[]): Promise<{ labels: Map<string, Labels>; read: ReadLabels[] }> {
  const labels = new Map<string, Labels>();
  const read: ReadLabels[] = [];
  if (keys.length === 0) return { labels, read };
  const json = JSON.stringify(keys);
  const [stored, reviewed, feedback] = await db.batch([
    db
      .prepare('select query_key, judgements, sources from eval_labels where project_id = ?1 and query_key in (select value from json_each(?2))')
      .bind(projectId, json),
    db
      .prepare(
        `select query_key, chunk_id, verdict = 'relevant' as relevance, candidate from review_items
         where project_id = ?1 and status = 'answered' and verdict in ('relevant', 'not_relevant') and query_key in ${UNREAD_KEYS}`,
      )
      .bind(projectId, json),
    db.prepare(FEEDBACK_LABELS).bind(projectId, json, LOW_CONFIDENCE, settings.goodTraceScore, run.windowTo),
  ]);
  const known = new Map(
    (stored!.results as { query_key: string; judgements: string; sources: string }[]).map((r) => [
      r.query_key,
      { judgements: JSON.parse(r.judgements) as Record<string, number>, sources: JSON.parse(r.sources) as string[] },
    ]),
  );
  const verdicts = reviewed!.results as (Label & { candidate: 'positive' | 'negative' })[];
  const feedbackLabels = feedback!.results as Label[];
  const byPair = new Map(feedbackLabels.map((r) => [`${r.query_key}\n${r.chunk_id}`, r.relevance]));
  const agreed = verdicts.filter((r) => !isDisputed(r.relevance, r.candidate, byPair.get(`${r.query_key}\n${r.chunk_id}`)));
  const found = new Map<string, Labels>();
  for (const [source, rows] of [
    ['review', agreed],
    ['feedback', feedbackLabels],
  ] as const) {
    for (const r of rows) {
      const labels = found.get(r.query_key) ?? { judgements: {}, sources: [] };
      if (!(r.chunk_id in labels.judgements)) labels.judgements[r.chunk_id] = r.relevance;
      if (!labels.sources.includes(source)) labels.sources.push(source);
      found.set(r.query_key, labels);
    }
  }
  for (const key of new Set(keys)) {
    let of = known.get(key);
    if (!of) {
      // Read now: kept even when there are none, so no later layer reads the answers again.
      of = found.get(key) ?? { judgements: {}, sources: [] };
      read.push({ queryKey: key, ...of });
    }
    if (of.sources.length > 0) labels.set(key, of);
  }
  return { labels, read };
}

/**
 * The next page of the query keys `sql` lists in order, after `after` (null: from the start):
 * `sql(after)` is given where the page starts (`?2` the last key read), `?1` is the project, `?3`
 * the page size, then `params`. The first page's condition is `?2 is null` rather than an `or`, so
 * every later page is a range on the key's index instead of a scan from the start.
 */
async function keyPage(
  ctx: StageContext,
  sql: (after: string) => string,
  after: string | null,
  params: readonly unknown[] = [],
): Promise<{ keys: string[]; last: string | null }> {
  const keys = (
    await ctx.db
      .prepare(sql(after === null ? '?2 is null' : 'query_key > ?2'))
      .bind(ctx.projectId, after, pageSize(ctx), ...params)
      .all<{ query_key: string }>()
  ).results.map((r) => r.query_key);
  // A short page is the list's last.
  return { keys, last: keys.length < pageSize(ctx) ? null : keys.at(-1)! };
}

/** The next page of the layer `at` is in, taking at most `room` items. */
function nextPage(ctx: StageContext, at: Cursor, version: string, room: number): Promise<Page> {
  switch (at.layer) {
    case 'echo':
      return echo(ctx, at, version, room);
    case 'variant':
      return variants(ctx, at, room);
    case 'conflict':
      return conflicts(ctx, at, room);
    case 'replay':
      return replay(ctx);
  }
}

/** Echo: labelled held-out questions as users last asked them; those reviewers answered first, then by key. */
async function echo(ctx: StageContext, at: Extract<Cursor, { layer: 'echo' }>, version: string, room: number): Promise<Page> {
  const { keys, last } = await keyPage(
    ctx,
    at.list === 'reviewed'
      ? (after) => `select distinct query_key from review_items where project_id = ?1 and status = 'answered' and verdict in ('relevant', 'not_relevant')
         and ${after} order by query_key limit ?3`
      : (after) => `select distinct query_key from trace_stats where project_id = ?1 and ${after} order by query_key limit ?3`,
    at.after,
  );
  const heldOut = keys.filter(isHeldOut);
  // Questions the reviewed list already put in.
  const { results } = await ctx.db
    .prepare(
      `select query_key from eval_items where project_id = ?1 and layer = 'echo' and version = ?2 and position < ?3 and query_key in (select value from json_each(?4))`,
    )
    .bind(ctx.projectId, version, at.have, JSON.stringify(heldOut))
    .all<{ query_key: string }>();
  const seen = new Set(results.map((r) => r.query_key));
  const { labels, read } = await labelsOf(
    ctx,
    heldOut.filter((k) => !seen.has(k)),
  );
  const latest = await latestTraceOfKeys(ctx.db, ctx.projectId, [...labels.keys()]);
  const items: Item[] = [];
  for (const [key, { judgements, sources }] of labels) {
    const t = latest.get(key);
    if (!t || items.length >= room) continue;
    items.push({ query: t.query, queryKey: key, traceId: t.traceId, judgements, source: sources.join('+') });
  }
  if (items.length >= room) return { items, next: null, read };
  if (last !== null) return { items, next: { ...at, after: last }, read };
  return { items, next: at.list === 'reviewed' ? { layer: 'echo', list: 'answered', after: null } : null, read };
}

/**
 * Variants: what users typed when they re-asked a labelled held-out question, with its labels; in
 * the order they arrived. Only wordings held out themselves: one that is not trains the model
 * (its reviews, its engagement, its memory of judged questions), which would then be scored on it.
 */
async function variants(ctx: StageContext, at: Extract<Cursor, { layer: 'variant' }>, room: number): Promise<Page> {
  const { db, projectId, run } = ctx;
  const { results } = await db
    .prepare(
      `select e.received_at, e.event_id, s.query_key, n.trace_id, n.query from feedback_events e
       ${JOIN_VERDICT}
       join trace_stats s on s.project_id = e.project_id and s.trace_id = e.trace_id
       join traces n on n.project_id = e.project_id and n.trace_id = json_extract(e.detail, '$.nextTraceId')
       where e.project_id = ?1 and e.signal_type = 'rephrase_within_session' and ${assessedSql('?6')} and ${VERDICT.confidence} >= ?2
         and e.received_at >= ?3 and (e.received_at > ?3 or e.event_id > ?4)
       order by e.received_at, e.event_id limit ?5`,
    )
    .bind(projectId, LOW_CONFIDENCE, at.receivedAt, at.eventId, pageSize(ctx), run.windowTo)
    .all<{ received_at: number; event_id: string; query_key: string; trace_id: string; query: string }>();
  const rephrased = results.filter((r) => {
    const asked = traceQueryKey(r.query, r.trace_id);
    return isHeldOut(r.query_key) && isHeldOut(asked) && asked !== r.query_key;
  });
  const { labels, read } = await labelsOf(ctx, [...new Set(rephrased.map((r) => r.query_key))]);
  const items: Item[] = [];
  for (const r of rephrased) {
    const judgements = labels.get(r.query_key)?.judgements;
    if (judgements && items.length < room)
      items.push({ query: r.query, queryKey: traceQueryKey(r.query, r.trace_id), traceId: r.trace_id, judgements, source: 'rephrase' });
  }
  const last = results.at(-1);
  if (items.length >= room || results.length < pageSize(ctx) || !last) return { items, next: null, read };
  return { items, next: { layer: 'variant', receivedAt: last.received_at, eventId: last.event_id }, read };
}

/**
 * A page of the questions whose answers were judged both ways (scored good, ?4, and bad, ?5), after
 * `after` (see `keyPage`). An answer without trusted signals has no weighted score, which max()
 * and min() pass over, so the question index alone answers it, without the answers' rows.
 */
export const conflictKeysSql = (after: string) => `select query_key from trace_stats where project_id = ?1 and ${after} group by query_key
  having ${clearlyGoodSql('max(weighted_score)', '?4')} and ${clearlyBadSql('min(weighted_score)', '?5')} order by query_key limit ?3`;

/** Conflicts: held-out questions whose answers were judged both ways, by key. */
async function conflicts(ctx: StageContext, at: Extract<Cursor, { layer: 'conflict' }>, room: number): Promise<Page> {
  const { keys: all, last } = await keyPage(ctx, conflictKeysSql, at.after, [ctx.settings.goodTraceScore, ctx.settings.badTraceScore]);
  const keys = all.filter(isHeldOut);
  const [{ labels, read }, latest] = await Promise.all([labelsOf(ctx, keys), latestTraceOfKeys(ctx.db, ctx.projectId, keys)]);
  const items: Item[] = [];
  for (const key of keys) {
    const t = latest.get(key);
    if (t && items.length < room)
      items.push({ query: t.query, queryKey: key, traceId: t.traceId, judgements: labels.get(key)?.judgements ?? {}, source: 'split feedback' });
  }
  return { items, next: items.length >= room || last === null ? null : { layer: 'conflict', after: last }, read };
}

/** Replay: recent held-out answers with clear feedback, as they were ranked then. */
async function replay(ctx: StageContext): Promise<Page> {
  const { results } = await ctx.db
    .prepare(
      `select s.trace_id, s.query_key, t.query, s.weighted_score from trace_stats s join traces t on t.project_id = s.project_id and t.trace_id = s.trace_id
       where s.project_id = ?1 and s.trusted_signals > 0 and ${clearlyJudgedSql('s.weighted_score', '?3', '?4')} and abs(s.weighted_score) >= ?5 order by s.created_at desc limit ?2`,
    )
    .bind(ctx.projectId, REPLAY_ITEMS * 4, ctx.settings.badTraceScore, ctx.settings.goodTraceScore, REPLAY_MIN_SCORE)
    .all<{ trace_id: string; query_key: string; query: string; weighted_score: number }>();
  const recent = results.filter((r) => isHeldOut(r.query_key)).slice(0, REPLAY_ITEMS);
  const { labels, read } = await labelsOf(ctx, [...new Set(recent.map((r) => r.query_key))]);
  const items = recent.map((r) => ({
    query: r.query,
    queryKey: r.query_key,
    traceId: r.trace_id,
    judgements: labels.get(r.query_key)?.judgements ?? {},
    source: `answer scored ${r.weighted_score.toFixed(2)}`,
  }));
  return { items, next: null, read };
}
