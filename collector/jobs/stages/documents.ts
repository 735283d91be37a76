import { utcDay } from '../../../shared/time.ts';
import { BASELINE_DAYS, type DocumentCounts, judgeDocument, RECENT_DAYS } from '../../loop/documents.ts';
import { jsonArrays } from '../../storage/sql/json-insert.ts';
import type { SliceResult, Stage } from './stage.ts';

/** Answers kept as evidence per flagged document. */
const EVIDENCE_TRACES = 10;
const DAY = 86_400_000;

interface Row extends DocumentCounts {
  negativeRecent: number;
}

/**
 * Tests every document and version seen in the last RECENT_DAYS + BASELINE_DAYS against the
 * project's baseline and keeps the flags current: new ones added, lasting ones updated, those
 * no longer significant cleared.
 */
export const documents: Stage = {
  name: 'documents',
  async slice({ db, projectId, night, now, settings }): Promise<SliceResult> {
    const recentFrom = utcDay(now - RECENT_DAYS * DAY);
    const from = utcDay(now - (RECENT_DAYS + BASELINE_DAYS) * DAY);
    const counts = `sum(scored) as scored, sum(negative) as negative,
      sum(case when day > ?3 then traces end) as recent, sum(case when day > ?3 then requeried end) as recentRequeried,
      sum(case when day <= ?3 then traces end) as before, sum(case when day <= ?3 then requeried end) as beforeRequeried`;
    const { results } = await db
      .prepare(
        `select source_doc_id as docId, source_doc_version as docVersion, ${counts} from document_days where project_id = ?1 and day > ?2 group by 1, 2
         union all
         select source_doc_id, '*', ${counts} from document_days where project_id = ?1 and day > ?2 group by 1`,
      )
      .bind(projectId, from, recentFrom)
      .all<Row>();
    const base = await db
      .prepare('select sum(with_trusted) as scored, sum(negative) as negative from day_stats where project_id = ? and day > ?')
      .bind(projectId, from)
      .first<{ scored: number | null; negative: number | null }>();
    const baseline = base?.scored ? (base.negative ?? 0) / base.scored : 0;
    // Rows per document: its versions' and its own ('*'). Counted once, not per row: a large knowledge base has many.
    const rowsOf = new Map<string, number>();
    for (const r of results) rowsOf.set(r.docId, (rowsOf.get(r.docId) ?? 0) + 1);
    const flagged = [];
    for (const r of results) {
      const d = { ...r, recent: r.recent ?? 0, recentRequeried: r.recentRequeried ?? 0, before: r.before ?? 0, beforeRequeried: r.beforeRequeried ?? 0 };
      // A document seen in one version only is judged once, as a whole.
      if (d.docVersion !== '*' && rowsOf.get(d.docId)! <= 2) continue;
      const verdict = judgeDocument(d, baseline);
      if (verdict.flagged) flagged.push({ d, verdict });
    }
    // The worst answers behind each flag, in one round trip for all of them.
    const evidence = flagged.length
      ? await db.batch(
          flagged.map(({ d }) =>
            db
              .prepare(
                `select distinct s.trace_id from trace_stats s join trace_chunks c on c.project_id = s.project_id and c.trace_id = s.trace_id
                 where s.project_id = ?1 and c.source_doc_id = ?2 and (?3 is null or coalesce(c.source_doc_version, '') = ?3) and s.created_at >= ?4 and s.trusted_signals > 0
                   and (s.weighted_score <= ?5 or s.requeried)
                 order by s.weighted_score asc limit ?6`,
              )
              .bind(
                projectId,
                d.docId,
                d.docVersion === '*' ? null : d.docVersion,
                now - (RECENT_DAYS + BASELINE_DAYS) * DAY,
                settings.badTraceScore,
                EVIDENCE_TRACES,
              ),
          ),
        )
      : [];
    const flags = flagged.map(({ d, verdict }, i) => ({
      docId: d.docId,
      version: d.docVersion,
      reasons: verdict.reasons,
      counts: {
        scored: d.scored,
        negative: d.negative,
        recent: d.recent,
        recentRequeried: d.recentRequeried,
        before: d.before,
        beforeRequeried: d.beforeRequeried,
        baselinePercent: Math.round(baseline * 1000) / 10,
      },
      negativeP: verdict.negativeP,
      requeryP: verdict.requeryP,
      evidence: (evidence[i]!.results as { trace_id: string }[]).map((e) => e.trace_id),
    }));
    await db.batch([
      db
        .prepare(
          `delete from document_flags where project_id = ?1 and (source_doc_id || char(0) || source_doc_version) not in
             (select (value ->> 'docId') || char(0) || (value ->> 'version') from json_each(?2))`,
        )
        .bind(projectId, JSON.stringify(flags.map(({ docId, version }) => ({ docId, version })))),
      ...jsonArrays(flags).map((part) =>
        db
          .prepare(
            `insert into document_flags (project_id, source_doc_id, source_doc_version, reasons, counts, negative_p, requery_p, evidence, first_flagged, last_flagged)
           select ?1, value ->> 'docId', value ->> 'version', value -> 'reasons', value -> 'counts', value ->> 'negativeP', value ->> 'requeryP', value -> 'evidence', ?2, ?2
           from json_each(?3) where true
           on conflict (project_id, source_doc_id, source_doc_version) do update set reasons = excluded.reasons, counts = excluded.counts,
             negative_p = excluded.negative_p, requery_p = excluded.requery_p, evidence = excluded.evidence, last_flagged = excluded.last_flagged`,
          )
          .bind(projectId, night, part),
      ),
    ]);
    return { cursor: null, counts: { documents: results.length, flagged: flags.length } };
  },
};
