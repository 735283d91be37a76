import { queryKey } from '../../../shared/terms.ts';
import { EVAL_LAYERS, type EvalLayer, isHeldOut, isoWeek, MAX_EVAL_ITEMS, REPLAY_ITEMS } from '../../loop/eval-sets.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
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

interface Labels {
  judgements: Record<string, number>;
  /** Where they came from: review, feedback or both. */
  sources: string[];
}

/**
 * Rows read per statement while looking for held-out questions: the stage holds one page and the
 * items it keeps (at most MAX_EVAL_ITEMS a layer), never every label of the project, which grows
 * with traffic (a million traces held millions of them).
 */
const PAGE = 500;

/**
 * Builds this week's eval sets once (a week's version, once written, is frozen): labels from
 * answered review items and clear explicit feedback, on held-out queries only. Each layer reads
 * its candidates page by page in a fixed order and stops once it has MAX_EVAL_ITEMS.
 */
export const evals: Stage = {
  name: 'evals',
  async slice(ctx): Promise<SliceResult> {
    const { db, projectId, night } = ctx;
    const version = isoWeek(night);
    const done = await db.prepare('select 1 from eval_sets where project_id = ? and version = ? limit 1').bind(projectId, version).first();
    if (done) return { cursor: null, counts: { frozen: 1 } };

    const layers: Record<EvalLayer, Item[]> = {
      echo: await echo(ctx),
      variant: await variants(ctx),
      conflict: await conflicts(ctx),
      replay: await replay(ctx),
    };
    const rows = EVAL_LAYERS.flatMap((layer) => layers[layer].map((item, position) => ({ ...item, layer, position })));
    // In parts: a week's items with their labels outgrow the largest value D1 binds (SQLITE_TOOBIG at a million traces).
    await db.batch([
      ...jsonArrays(rows).map((part) =>
        db
          .prepare(
            `insert or ignore into eval_items (project_id, layer, version, position, query, query_key, trace_id, judgements, source)
             select ?1, value ->> 'layer', ?2, value ->> 'position', value ->> 'query', value ->> 'queryKey', value ->> 'traceId', value -> 'judgements', value ->> 'source'
             from json_each(?3)`,
          )
          .bind(projectId, version, part),
      ),
      ...EVAL_LAYERS.map((layer) =>
        db
          .prepare('insert or ignore into eval_sets (project_id, layer, version, items, created_at) values (?, ?, ?, ?, ?)')
          .bind(projectId, layer, version, layers[layer].length, Date.now()),
      ),
    ]);
    return { cursor: null, counts: Object.fromEntries(EVAL_LAYERS.filter((layer) => layers[layer].length > 0).map((layer) => [layer, layers[layer].length])) };
  },
};

/**
 * Explicit feedback's label for each (question, chunk) pair, one row per pair: a trusted
 * wrong-source flag makes the chunk not relevant, whatever else users did with it; otherwise a
 * click, focused reading or copy of it on a clearly good answer makes it relevant. From the
 * page's keys to their answers and their events (cross joins keep that order; the unary plus keeps
 * SQLite off the type index): the other way round, SQLite reads every event that names a chunk for
 * each page.
 */
const FEEDBACK_LABELS = `select query_key, chunk_id, min(signal_type <> 'wrong_source') as relevance
  from (${attributedEventsSql({
    from: 'json_each(?2) k cross join trace_stats s on s.project_id = ?1 and s.query_key = k.value',
    traceId: 's.trace_id',
    columns: `s.query_key, ${EVENT_CHUNK} as chunk_id, e.signal_type`,
    until: '?5',
    where: `${NAMES_CHUNK} and ${VERDICT.confidence} >= ?3
      and +e.signal_type in ('wrong_source', 'citation_click', 'citation_dwell', 'copy_source') and e.superseded = 0
      and (e.signal_type = 'wrong_source' or (s.weighted_score >= ?4 and s.explicit_signals > 0))`,
  })})
  group by query_key, chunk_id`;

/** The labels of some held-out questions: the reviewers' verdicts first, then the users' clearest feedback. */
async function labelsOf({ db, projectId, settings, run }: StageContext, keys: readonly string[]): Promise<Map<string, Labels>> {
  const out = new Map<string, Labels>();
  if (keys.length === 0) return out;
  const json = JSON.stringify(keys);
  const [reviewed, feedback] = await db.batch<{ query_key: string; chunk_id: string; relevance: number }>([
    db
      .prepare(
        `select query_key, chunk_id, verdict = 'relevant' as relevance from review_items
         where project_id = ?1 and status = 'answered' and verdict in ('relevant', 'not_relevant') and query_key in (select value from json_each(?2))`,
      )
      .bind(projectId, json),
    db.prepare(FEEDBACK_LABELS).bind(projectId, json, LOW_CONFIDENCE, settings.goodTraceScore, run.windowTo),
  ]);
  for (const [source, rows] of [
    ['review', reviewed!.results],
    ['feedback', feedback!.results],
  ] as const) {
    for (const r of rows) {
      const labels = out.get(r.query_key) ?? { judgements: {}, sources: [] };
      if (!(r.chunk_id in labels.judgements)) labels.judgements[r.chunk_id] = r.relevance;
      if (!labels.sources.includes(source)) labels.sources.push(source);
      out.set(r.query_key, labels);
    }
  }
  return out;
}

/**
 * Walks the query keys `sql` lists in order, a page at a time, until `take` has enough or the list
 * ends: `sql(after)` is given where a page starts (`?2` the last key read), `?1` is the project,
 * `?3` the page size, then `params`. The first page's condition is `?2 is null` rather than an
 * `or`, so every later page is a range on the key's index instead of a scan from the start.
 */
async function eachPage(
  { db, projectId }: StageContext,
  sql: (after: string) => string,
  params: readonly unknown[],
  take: (heldOut: string[]) => Promise<boolean>,
): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const page: string[] = (
      await db
        .prepare(sql(after === null ? '?2 is null' : 'query_key > ?2'))
        .bind(projectId, after, PAGE, ...params)
        .all<{ query_key: string }>()
    ).results.map((r) => r.query_key);
    if ((await take(page.filter(isHeldOut))) || page.length < PAGE) return;
    after = page.at(-1)!;
  }
}

/** Echo: labelled held-out questions as users last asked them; those with reviewed labels first, then by key. */
async function echo(ctx: StageContext): Promise<Item[]> {
  const items: Item[] = [];
  const seen = new Set<string>();
  const take = async (keys: string[]) => {
    const labels = await labelsOf(
      ctx,
      keys.filter((k) => !seen.has(k)),
    );
    const latest = await latestTraceOfKeys(ctx.db, ctx.projectId, [...labels.keys()]);
    for (const [key, { judgements, sources }] of labels) {
      const t = latest.get(key);
      if (!t || items.length >= MAX_EVAL_ITEMS) continue;
      seen.add(key);
      items.push({ query: t.query, queryKey: key, traceId: t.traceId, judgements, source: sources.join('+') });
    }
    return items.length >= MAX_EVAL_ITEMS;
  };
  await eachPage(
    ctx,
    (after) => `select distinct query_key from review_items where project_id = ?1 and status = 'answered' and verdict in ('relevant', 'not_relevant')
     and ${after} order by query_key limit ?3`,
    [],
    take,
  );
  if (items.length < MAX_EVAL_ITEMS)
    await eachPage(ctx, (after) => `select distinct query_key from trace_stats where project_id = ?1 and ${after} order by query_key limit ?3`, [], take);
  return items;
}

/** Variants: what users typed when they re-asked a labelled held-out question, with its labels; in the order they arrived. */
async function variants(ctx: StageContext): Promise<Item[]> {
  const { db, projectId, run } = ctx;
  const items: Item[] = [];
  let after = { receivedAt: -1, eventId: '' };
  while (items.length < MAX_EVAL_ITEMS) {
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
      .bind(projectId, LOW_CONFIDENCE, after.receivedAt, after.eventId, PAGE, run.windowTo)
      .all<{ received_at: number; event_id: string; query_key: string; trace_id: string; query: string }>();
    const rephrased = results.filter((r) => isHeldOut(r.query_key) && queryKey(r.query) !== r.query_key);
    const labels = await labelsOf(ctx, [...new Set(rephrased.map((r) => r.query_key))]);
    for (const r of rephrased) {
      const judgements = labels.get(r.query_key)?.judgements;
      if (judgements && items.length < MAX_EVAL_ITEMS)
        items.push({ query: r.query, queryKey: queryKey(r.query), traceId: r.trace_id, judgements, source: 'rephrase' });
    }
    if (results.length < PAGE) break;
    const last = results.at(-1)!;
    after = { receivedAt: last.received_at, eventId: last.event_id };
  }
  return items;
}

/** Conflicts: held-out questions whose answers were judged both ways, by key. */
async function conflicts(ctx: StageContext): Promise<Item[]> {
  const items: Item[] = [];
  await eachPage(
    ctx,
    (after) => `select query_key from trace_stats where project_id = ?1 and ${after} and trusted_signals > 0 group by query_key
     having max(weighted_score) >= ?4 and min(weighted_score) <= ?5 order by query_key limit ?3`,
    [ctx.settings.goodTraceScore, ctx.settings.badTraceScore],
    async (keys) => {
      const [labels, latest] = await Promise.all([labelsOf(ctx, keys), latestTraceOfKeys(ctx.db, ctx.projectId, keys)]);
      for (const key of keys) {
        const t = latest.get(key);
        if (t && items.length < MAX_EVAL_ITEMS)
          items.push({ query: t.query, queryKey: key, traceId: t.traceId, judgements: labels.get(key)?.judgements ?? {}, source: 'split feedback' });
      }
      return items.length >= MAX_EVAL_ITEMS;
    },
  );
  return items;
}

/** Replay: recent held-out answers with clear feedback, as they were ranked then. */
async function replay(ctx: StageContext): Promise<Item[]> {
  const { results } = await ctx.db
    .prepare(
      `select s.trace_id, s.query_key, t.query, s.weighted_score from trace_stats s join traces t on t.project_id = s.project_id and t.trace_id = s.trace_id
       where s.project_id = ? and s.trusted_signals > 0 and abs(s.weighted_score) >= 0.5 order by s.created_at desc limit ?`,
    )
    .bind(ctx.projectId, REPLAY_ITEMS * 4)
    .all<{ trace_id: string; query_key: string; query: string; weighted_score: number }>();
  const recent = results.filter((r) => isHeldOut(r.query_key)).slice(0, REPLAY_ITEMS);
  const labels = await labelsOf(ctx, [...new Set(recent.map((r) => r.query_key))]);
  return recent.map((r) => ({
    query: r.query,
    queryKey: r.query_key,
    traceId: r.trace_id,
    judgements: labels.get(r.query_key)?.judgements ?? {},
    source: `answer scored ${r.weighted_score.toFixed(2)}`,
  }));
}
