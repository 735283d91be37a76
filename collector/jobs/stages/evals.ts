import { queryKey } from '../../../shared/terms.ts';
import { type EvalLayer, isHeldOut, isoWeek, MAX_EVAL_ITEMS, REPLAY_ITEMS } from '../../loop/eval-sets.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { jsonArrays } from '../../storage/sql/json-insert.ts';
import { latestTraceOfKeys } from '../../storage/trace-stats.ts';
import type { SliceResult, Stage } from './stage.ts';

interface Item {
  layer: EvalLayer;
  query: string;
  queryKey: string;
  traceId: string;
  judgements: Record<string, number>;
  source: string;
}

/**
 * Builds this week's eval sets once (a week's version, once written, is frozen): labels from
 * answered review items and clear explicit feedback, on held-out queries only.
 */
export const evals: Stage = {
  name: 'evals',
  async slice({ db, projectId, night, settings }): Promise<SliceResult> {
    const version = isoWeek(night);
    const done = await db.prepare('select 1 from eval_sets where project_id = ? and version = ? limit 1').bind(projectId, version).first();
    if (done) return { cursor: null, counts: { frozen: 1 } };

    // Labels by query key: the reviewers' verdicts, then the users' clearest feedback.
    const labels = new Map<string, Record<string, number>>();
    const sources = new Map<string, Set<string>>();
    const label = (key: string, chunkId: string, relevance: number, source: string) => {
      if (!isHeldOut(key)) return;
      const j = labels.get(key) ?? {};
      if (!(chunkId in j)) j[chunkId] = relevance;
      labels.set(key, j);
      sources.set(key, (sources.get(key) ?? new Set()).add(source));
    };
    const { results: reviewed } = await db
      .prepare(`select query_key, chunk_id, verdict from review_items where project_id = ? and status = 'answered' and verdict in ('relevant', 'not_relevant')`)
      .bind(projectId)
      .all<{ query_key: string; chunk_id: string; verdict: string }>();
    for (const r of reviewed) label(r.query_key, r.chunk_id, r.verdict === 'relevant' ? 1 : 0, 'review');
    const { results: explicit } = await db
      .prepare(
        `select s.query_key, e.signal_type, json_extract(e.detail, '$.chunkId') as chunk_id from feedback_events e
         join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id
         join trace_stats s on s.project_id = e.project_id and s.trace_id = a.attributed_trace_id
         where e.project_id = ?1 and e.signal_type in ('wrong_source', 'citation_click', 'citation_dwell', 'copy_source')
           and e.superseded = 0 and a.confidence >= ?2 and json_extract(e.detail, '$.chunkId') is not null
           and (e.signal_type = 'wrong_source' or (s.weighted_score >= ?3 and s.explicit_signals > 0))`,
      )
      .bind(projectId, LOW_CONFIDENCE, settings.goodTraceScore)
      .all<{ query_key: string; signal_type: string; chunk_id: string }>();
    for (const r of explicit) label(r.query_key, r.chunk_id, r.signal_type === 'wrong_source' ? 0 : 1, 'feedback');

    // The latest answer to each labelled query gives its typed form and candidates.
    const latest = await latestTraceOfKeys(db, projectId, [...labels.keys()]);
    const items: Item[] = [];
    for (const [key, judgements] of labels) {
      const t = latest.get(key);
      if (t) items.push({ layer: 'echo', query: t.query, queryKey: key, traceId: t.traceId, judgements, source: [...sources.get(key)!].join('+') });
    }
    // Variants: what users typed when they re-asked a labelled question, with its labels.
    const { results: rephrases } = await db
      .prepare(
        `select s.query_key, n.trace_id, n.query from feedback_events e join event_assessments a on a.project_id = e.project_id and a.event_id = e.event_id
         join trace_stats s on s.project_id = e.project_id and s.trace_id = e.trace_id
         join traces n on n.project_id = e.project_id and n.trace_id = json_extract(e.detail, '$.nextTraceId')
         where e.project_id = ? and e.signal_type = 'rephrase_within_session' and a.confidence >= ?`,
      )
      .bind(projectId, LOW_CONFIDENCE)
      .all<{ query_key: string; trace_id: string; query: string }>();
    for (const r of rephrases) {
      const judgements = labels.get(r.query_key);
      if (judgements && queryKey(r.query) !== r.query_key)
        items.push({ layer: 'variant', query: r.query, queryKey: queryKey(r.query), traceId: r.trace_id, judgements, source: 'rephrase' });
    }
    // Conflicts: held-out questions whose answers were judged both ways.
    const { results: split } = await db
      .prepare(
        `select query_key from trace_stats where project_id = ?1 and trusted_signals > 0 group by query_key
         having max(weighted_score) >= ?2 and min(weighted_score) <= ?3`,
      )
      .bind(projectId, settings.goodTraceScore, settings.badTraceScore)
      .all<{ query_key: string }>();
    const conflictKeys = split.map((r) => r.query_key).filter(isHeldOut);
    const conflictTraces = await latestTraceOfKeys(db, projectId, conflictKeys);
    for (const key of conflictKeys) {
      const t = conflictTraces.get(key);
      if (t) items.push({ layer: 'conflict', query: t.query, queryKey: key, traceId: t.traceId, judgements: labels.get(key) ?? {}, source: 'split feedback' });
    }
    // Replay: recent held-out answers with clear feedback, as they were ranked then.
    const { results: replay } = await db
      .prepare(
        `select s.trace_id, s.query_key, t.query, s.weighted_score from trace_stats s join traces t on t.project_id = s.project_id and t.trace_id = s.trace_id
         where s.project_id = ? and s.trusted_signals > 0 and abs(s.weighted_score) >= 0.5 order by s.created_at desc limit ?`,
      )
      .bind(projectId, REPLAY_ITEMS * 4)
      .all<{ trace_id: string; query_key: string; query: string; weighted_score: number }>();
    for (const r of replay.filter((x) => isHeldOut(x.query_key)).slice(0, REPLAY_ITEMS)) {
      items.push({
        layer: 'replay',
        query: r.query,
        queryKey: r.query_key,
        traceId: r.trace_id,
        judgements: labels.get(r.query_key) ?? {},
        source: `answer scored ${r.weighted_score.toFixed(2)}`,
      });
    }

    const byLayer = new Map<EvalLayer, Item[]>();
    for (const item of items) byLayer.set(item.layer, [...(byLayer.get(item.layer) ?? []), item]);
    const rows = [...byLayer].flatMap(([, list]) => list.slice(0, MAX_EVAL_ITEMS).map((item, position) => ({ ...item, position })));
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
      ...['echo', 'variant', 'conflict', 'replay'].map((layer) =>
        db
          .prepare('insert or ignore into eval_sets (project_id, layer, version, items, created_at) values (?, ?, ?, ?, ?)')
          .bind(projectId, layer, version, rows.filter((r) => r.layer === layer).length, Date.now()),
      ),
    ]);
    return { cursor: null, counts: Object.fromEntries([...byLayer].map(([layer, list]) => [layer, Math.min(list.length, MAX_EVAL_ITEMS)])) };
  },
};
