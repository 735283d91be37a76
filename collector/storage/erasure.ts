import { ITEM_EVIDENCE_LINES, itemAggregatesSql, writeItemAggregates } from './review-recompute.ts';

/** Trace ids erased per batch: D1 limits a statement's size, not its rows. */
const ERASE_BATCH = 500;

export interface ErasureCounts {
  traces: number;
  events: number;
  reviewItems: number;
  corrections: number;
}

/**
 * Deletes everything of one hashed user id: their traces with their chunks and aggregates, every
 * event about those traces with its assessment, their corrections and eval items, and their part
 * of review items (an item only they raised goes; one others raised too is recomputed from the
 * traces left, and shows the query as one of them typed it).
 */
export async function eraseUser(d1: D1Database, projectId: string, userIdHash: string): Promise<ErasureCounts> {
  const counts: ErasureCounts = { traces: 0, events: 0, reviewItems: 0, corrections: 0 };
  for (;;) {
    const { results } = await d1
      .prepare('select trace_id from traces where project_id = ? and user_id_hash = ? limit ?')
      .bind(projectId, userIdHash, ERASE_BATCH)
      .all<{ trace_id: string }>();
    if (results.length === 0) break;
    const ids = JSON.stringify(results.map((r) => r.trace_id));
    const inIds = (column: string) => `project_id = ?1 and ${column} in (select value from json_each(?2))`;
    const { results: affected } = await d1
      .prepare(`select distinct item_id from review_item_traces where ${inIds('trace_id')}`)
      .bind(projectId, ids)
      .all<{ item_id: string }>();
    const items = JSON.stringify(affected.map((a) => a.item_id));
    const r = await d1.batch([
      d1.prepare(`delete from event_assessments where ${inIds('trace_id')} or ${inIds('attributed_trace_id')}`).bind(projectId, ids),
      d1.prepare(`delete from feedback_events where ${inIds('trace_id')}`).bind(projectId, ids),
      d1.prepare(`delete from review_item_traces where ${inIds('trace_id')}`).bind(projectId, ids),
      d1
        .prepare(
          `delete from review_items where project_id = ?1 and item_id in (select value from json_each(?2))
             and not exists (select 1 from review_item_traces r where r.project_id = ?1 and r.item_id = review_items.item_id)`,
        )
        .bind(projectId, items),
      d1.prepare(itemAggregatesSql('select value from json_each(?2)', '?3')).bind(projectId, items, ITEM_EVIDENCE_LINES),
      d1.prepare(`delete from corrections where ${inIds('trace_id')}`).bind(projectId, ids),
      d1.prepare(`delete from eval_items where ${inIds('trace_id')}`).bind(projectId, ids),
      d1.prepare(`delete from trace_chunks where ${inIds('trace_id')}`).bind(projectId, ids),
      d1.prepare(`delete from trace_stats where ${inIds('trace_id')}`).bind(projectId, ids),
      d1.prepare(`delete from traces where ${inIds('trace_id')}`).bind(projectId, ids),
    ]);
    const writes = writeItemAggregates(d1, projectId, Date.now(), r[4]!.results);
    if (writes.length) await d1.batch(writes);
    counts.events += r[1]!.meta.changes;
    counts.reviewItems += r[3]!.meta.changes;
    counts.corrections += r[5]!.meta.changes;
    counts.traces += r[9]!.meta.changes;
  }
  await d1.prepare('delete from session_stats where project_id = ? and user_id_hash = ?').bind(projectId, userIdHash).run();
  return counts;
}
