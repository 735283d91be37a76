import {
  type CitedCounts,
  countsToJudge,
  documentWindowAfter,
  type EvidenceEntry,
  judgeDocument,
  recentWindowAfter,
  worstAnswers,
} from '../../loop/documents.ts';
import { LATER_NIGHT_DONE_SQL } from '../../storage/loop-runs.ts';
import { jsonArrays } from '../../storage/sql/json-insert.ts';
import { stillStoredSql } from '../../storage/sql/still-stored.ts';
import type { SliceResult, Stage, StageContext } from './stage.ts';

/** Documents one slice judges, with all their versions: their rows of the window, a few dozen each. */
export const DOCUMENTS_PER_SLICE = 1_000;

/** A row of COUNTS_SQL: the counts of a set of versions of a document; the recent and earlier ones null when it has none. */
interface Row extends Omit<CitedCounts, 'versions' | 'recent' | 'recentRequeried' | 'before' | 'beforeRequeried'> {
  /** As stored: a JSON array, the key of its days' lists of worst answers. */
  versionsKey: string;
  recent: number | null;
  recentRequeried: number | null;
  before: number | null;
  beforeRequeried: number | null;
}

/**
 * The slice's documents: the first ?4 document ids after the cursor ?2 with rows in the window
 * (days after ?3, up to the night ?5), as the last one's id and their number. No document id is empty, so the first
 * slice's cursor is ''. Distinct ids, never rows: a document's rows all fall in one slice.
 */
export const PAGE_SQL = `select max(id) as last, count(*) as documents from (
    select distinct source_doc_id as id from document_days where project_id = ?1 and source_doc_id > ?2 and day > ?3 and day <= ?5 order by 1 limit ?4
  )`;

/**
 * The counts of each set of versions of the documents after ?2 up to and including ?3 (a range of
 * the primary key, not the whole project) over the window: days after ?4, up to the night ?6, the
 * recent part after ?5. Each answer is in one set per document (countsToJudge sums them).
 */
export const COUNTS_SQL = `select source_doc_id as docId, source_doc_versions as versionsKey, sum(scored) as scored, sum(negative) as negative, max(day) as lastDay,
    sum(case when day > ?5 then traces end) as recent, sum(case when day > ?5 then requeried end) as recentRequeried,
    sum(case when day <= ?5 then traces end) as before, sum(case when day <= ?5 then requeried end) as beforeRequeried
  from document_days where project_id = ?1 and source_doc_id > ?2 and source_doc_id <= ?3 and day > ?4 and day <= ?6 group by 1, 2`;

/**
 * The worst answers of each day and set of versions of the flagged documents ?2 (a JSON array of ids), on
 * the days after ?3 up to the night ?4: what the days stage kept, so a flag never reads the answers behind it.
 */
export const WORST_SQL = `select w.source_doc_id as docId, w.source_doc_versions as versionsKey, w.worst from json_each(?2) d
  cross join document_days w indexed by sqlite_autoindex_document_days_1 on w.project_id = ?1 and w.source_doc_id = d.value
  where w.day > ?3 and w.day <= ?4 and w.worst <> '[]'`;

/**
 * Tests every document and its current versions (countsToJudge) seen in the last RECENT_DAYS +
 * BASELINE_DAYS against the project's baseline and keeps the flags current: new ones added, lasting ones updated, those
 * no longer significant cleared. A slice judges the documents after its cursor in id order and
 * owns the flags of that id range (the last slice's runs to the end), so the flag of a document
 * no longer seen at all is cleared too.
 */
export function documentsStage(documentsPerSlice = DOCUMENTS_PER_SLICE): Stage {
  return { name: 'documents', slice: (ctx, cursor) => judgeDocuments(ctx, cursor ?? '', documentsPerSlice) };
}

export const documents = documentsStage();

async function judgeDocuments({ db, projectId, night, now }: StageContext, after: string, documentsPerSlice: number): Promise<SliceResult> {
  const recentFrom = recentWindowAfter(now);
  const from = documentWindowAfter(now);
  // Every slice reads the baseline again rather than keeping it in the run: a few dozen rows on
  // day_stats' primary key, which nothing writes after the days stage, so every slice gets the same.
  const [page, base, later] = await db.batch([
    db.prepare(PAGE_SQL).bind(projectId, after, from, documentsPerSlice, night),
    db
      .prepare('select sum(with_trusted) as scored, sum(negative) as negative from day_stats where project_id = ? and day > ? and day <= ?')
      .bind(projectId, from, night),
    db.prepare(LATER_NIGHT_DONE_SQL).bind(projectId, night),
  ]);
  // A missed night run after a later one (`?at=`): the later night judged the documents over the
  // days users see now, and its flags stay rather than those of an older window.
  if (later!.results.length > 0) return { cursor: null, counts: {}, note: 'flags left as a later night judged them' };
  const { last, documents: seen } = page!.results[0] as { last: string | null; documents: number };
  const { scored, negative } = base!.results[0] as { scored: number | null; negative: number | null };
  const baseline = scored ? (negative ?? 0) / scored : 0;
  const { results } = last === null ? { results: [] as Row[] } : await db.prepare(COUNTS_SQL).bind(projectId, after, last, from, recentFrom, night).all<Row>();
  // A short page is the last one: its flags run to the end of the ids.
  const cursor = seen < documentsPerSlice ? null : last;
  // Each document's rows, grouped once: a large knowledge base has many.
  const byDoc = new Map<string, (CitedCounts & { versionsKey: string })[]>();
  for (const r of results) {
    const d = {
      ...r,
      versions: JSON.parse(r.versionsKey) as string[],
      recent: r.recent ?? 0,
      recentRequeried: r.recentRequeried ?? 0,
      before: r.before ?? 0,
      beforeRequeried: r.beforeRequeried ?? 0,
    };
    const rows = byDoc.get(r.docId);
    if (rows) rows.push(d);
    else byDoc.set(r.docId, [d]);
  }
  const flagged = [];
  for (const rows of byDoc.values()) {
    for (const d of countsToJudge(rows)) {
      const verdict = judgeDocument(d, baseline);
      if (verdict.flagged) flagged.push({ d, verdict });
    }
  }
  // The worst answers behind each flag, from the days' lists of the rows it was counted on.
  const lists = new Map<string, EvidenceEntry[][]>();
  const key = (docId: string, versionsKey: string) => `${docId}\u0000${versionsKey}`;
  if (flagged.length) {
    const { results: days } = await db
      .prepare(WORST_SQL)
      .bind(projectId, JSON.stringify([...new Set(flagged.map(({ d }) => d.docId))]), from, night)
      .all<{ docId: string; versionsKey: string; worst: string }>();
    for (const day of days) {
      const worst = JSON.parse(day.worst) as EvidenceEntry[];
      const list = lists.get(key(day.docId, day.versionsKey));
      if (list) list.push(worst);
      else lists.set(key(day.docId, day.versionsKey), [worst]);
    }
  }
  const flags = flagged.map(({ d, verdict }) => ({
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
    evidence: worstAnswers(d.evidence.flatMap((r) => lists.get(key(d.docId, r.versionsKey)) ?? [])),
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
           select ?1, f.value ->> 'docId', f.value ->> 'version', f.value -> 'reasons', f.value -> 'counts', f.value ->> 'negativeP', f.value ->> 'requeryP',
             -- Answers still stored: one erased while the slice ran, or purged under a date ahead of its arrival, is not named.
             (select json_group_array(e.value) from json_each(f.value -> 'evidence') e where ${stillStoredSql('e.value')}), ?2, ?2
           from json_each(?3) f where true
           on conflict (project_id, source_doc_id, source_doc_version) do update set reasons = excluded.reasons, counts = excluded.counts,
             negative_p = excluded.negative_p, requery_p = excluded.requery_p, evidence = excluded.evidence, last_flagged = excluded.last_flagged`,
        )
        .bind(projectId, night, part),
    ),
  ]);
  return { cursor, counts: { documents: byDoc.size, flagged: flags.length } };
}
