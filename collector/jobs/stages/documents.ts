import { utcDay } from '../../../shared/time.ts';
import { BASELINE_DAYS, type DocumentCounts, judgeDocument, RECENT_DAYS } from '../../loop/documents.ts';
import { TEXT_VERSION } from '../../storage/sql/chunk-text.ts';
import { jsonArrays } from '../../storage/sql/json-insert.ts';
import type { SliceResult, Stage, StageContext } from './stage.ts';

/**
 * Documents one slice judges, with all their versions: about a millisecond a document at full
 * scale (its rows of the window, then the answers behind its flags, which take most of it), so
 * a slice stays around a second.
 */
export const DOCUMENTS_PER_SLICE = 1_000;
/** Answers kept as evidence per flagged document. */
const EVIDENCE_TRACES = 10;
const DAY = 86_400_000;

interface Row extends DocumentCounts {
  negativeRecent: number;
}

/**
 * The slice's documents: the first ?4 document ids after the cursor ?2 with rows in the window
 * (days after ?3), as the last one's id and their number. No document id is empty, so the first
 * slice's cursor is ''. Distinct ids, never rows: a document's rows all fall in one slice.
 */
export const PAGE_SQL = `select max(id) as last, count(*) as documents from (
    select distinct source_doc_id as id from document_days where project_id = ?1 and source_doc_id > ?2 and day > ?3 order by 1 limit ?4
  )`;

const COUNTS = `sum(scored) as scored, sum(negative) as negative,
  sum(case when day > ?5 then traces end) as recent, sum(case when day > ?5 then requeried end) as recentRequeried,
  sum(case when day <= ?5 then traces end) as before, sum(case when day <= ?5 then requeried end) as beforeRequeried`;

/**
 * Each version's counts and each document's own ('*') over the window (days after ?4), for the
 * documents after ?2 up to and including ?3: a range of the primary key, not the whole project.
 */
export const COUNTS_SQL = `select source_doc_id as docId, source_doc_version as docVersion, ${COUNTS}
    from document_days where project_id = ?1 and source_doc_id > ?2 and source_doc_id <= ?3 and day > ?4 group by 1, 2
  union all
  select source_doc_id, '*', ${COUNTS}
    from document_days where project_id = ?1 and source_doc_id > ?2 and source_doc_id <= ?3 and day > ?4 group by 1`;

/**
 * The worst answers citing the document ?2 (or only its version ?3) since ?4, scored bad (?5) or
 * re-asked, ?6 at most: nearly all of a slice's time (12 ms a flag at a tenth), read from the
 * document's own chunk rows. A newer SQLite (3.53's shell) walks the project's answers in score
 * order instead, 0.45 s a flag: a test holds the plan.
 */
export const EVIDENCE_SQL = `select distinct s.trace_id from trace_stats s join trace_chunks c on c.project_id = s.project_id and c.trace_id = s.trace_id
  where s.project_id = ?1 and c.source_doc_id = ?2 and (?3 is null or ${TEXT_VERSION} = ?3) and s.created_at >= ?4 and s.trusted_signals > 0
    and (s.weighted_score <= ?5 or s.requeried)
  order by s.weighted_score asc limit ?6`;

/**
 * Tests every document and version seen in the last RECENT_DAYS + BASELINE_DAYS against the
 * project's baseline and keeps the flags current: new ones added, lasting ones updated, those
 * no longer significant cleared. A slice judges the documents after its cursor in id order and
 * owns the flags of that id range (the last slice's runs to the end), so the flag of a document
 * no longer seen at all is cleared too.
 */
export function documentsStage(documentsPerSlice = DOCUMENTS_PER_SLICE): Stage {
  return { name: 'documents', slice: (ctx, cursor) => judgeDocuments(ctx, cursor ?? '', documentsPerSlice) };
}

export const documents = documentsStage();

async function judgeDocuments({ db, projectId, night, now, settings }: StageContext, after: string, documentsPerSlice: number): Promise<SliceResult> {
  const recentFrom = utcDay(now - RECENT_DAYS * DAY);
  const from = utcDay(now - (RECENT_DAYS + BASELINE_DAYS) * DAY);
  // Every slice reads the baseline again rather than keeping it in the run: a few dozen rows on
  // day_stats' primary key, which nothing writes after the days stage, so every slice gets the same.
  const [page, base] = await db.batch([
    db.prepare(PAGE_SQL).bind(projectId, after, from, documentsPerSlice),
    db.prepare('select sum(with_trusted) as scored, sum(negative) as negative from day_stats where project_id = ? and day > ?').bind(projectId, from),
  ]);
  const { last, documents: seen } = page!.results[0] as { last: string | null; documents: number };
  const { scored, negative } = base!.results[0] as { scored: number | null; negative: number | null };
  const baseline = scored ? (negative ?? 0) / scored : 0;
  const { results } = last === null ? { results: [] as Row[] } : await db.prepare(COUNTS_SQL).bind(projectId, after, last, from, recentFrom).all<Row>();
  // A short page is the last one: its flags run to the end of the ids.
  const cursor = seen < documentsPerSlice ? null : last;
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
            .prepare(EVIDENCE_SQL)
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
    // The slice's own range of ids: after its cursor, up to and including its last document (to the end for the last slice).
    db
      .prepare(
        `delete from document_flags where project_id = ?1 and source_doc_id > ?2 and (?3 is null or source_doc_id <= ?3)
           and (source_doc_id || char(0) || source_doc_version) not in (select (value ->> 'docId') || char(0) || (value ->> 'version') from json_each(?4))`,
      )
      .bind(projectId, after, cursor, JSON.stringify(flags.map(({ docId, version }) => ({ docId, version })))),
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
  // `documents` counts what was judged: each version and each document as a whole.
  return { cursor, counts: { documents: results.length, flagged: flags.length } };
}
