import type { Correction, FlaggedDocument } from '../../shared/admin-api/documents.ts';
import { failedTests, ownerOf } from '../loop/documents.ts';
import { ownersOf } from './owner-rules.ts';

export async function flaggedDocuments(d1: D1Database, projectId: string): Promise<FlaggedDocument[]> {
  const [owners, { results }] = await Promise.all([
    ownersOf(d1, projectId),
    d1
      .prepare(
        `select source_doc_id as sourceDocId, source_doc_version as sourceDocVersion, reasons, counts, negative_p as negativeP, requery_p as requeryP,
           evidence, first_flagged as firstFlagged, last_flagged as lastFlagged
         -- Most significant first: the smaller p of the two tests (one below the level failed), not the first one run.
         from document_flags where project_id = ? order by min(coalesce(negative_p, 1), coalesce(requery_p, 1)), source_doc_id, source_doc_version`,
      )
      .bind(projectId)
      .all<Omit<FlaggedDocument, 'owner' | 'failed' | 'reasons' | 'counts' | 'evidenceTraceIds'> & { reasons: string; counts: string; evidence: string }>(),
  ]);
  return results.map(({ reasons, counts, evidence, ...r }) => ({
    ...r,
    owner: ownerOf(r.sourceDocId, owners) ?? null,
    failed: failedTests(r.negativeP, r.requeryP),
    reasons: JSON.parse(reasons) as string[],
    counts: JSON.parse(counts) as Record<string, number>,
    evidenceTraceIds: JSON.parse(evidence) as string[],
  }));
}

/**
 * Corrections of one status, newest first, each with its document's owner and the answer it is
 * about: an earlier turn's, as routing took it, when the attribution moved it there and that answer
 * is still stored (read here, so an erased or purged one is not shown), with the later answer it
 * was sent under.
 */
export async function correctionsOf(d1: D1Database, projectId: string, status: Correction['status'], limit: number): Promise<Correction[]> {
  const [owners, { results }] = await Promise.all([
    ownersOf(d1, projectId),
    d1
      .prepare(
        `select c.event_id as eventId, coalesce(t.trace_id, c.trace_id) as traceId, coalesce(t.query, c.query) as query,
           case when t.trace_id is not null then json_object('traceId', c.trace_id, 'query', c.query) end as sentUnder,
           c.text, c.source, c.source_doc_id as sourceDocId, c.confidence, c.status, c.note, c.resolved_at as resolvedAt, c.created_at as createdAt
         from corrections c left join traces t on t.project_id = c.project_id and t.trace_id = c.attributed_trace_id
         where c.project_id = ? and c.status = ? order by c.created_at desc limit ?`,
      )
      .bind(projectId, status, limit)
      .all<Omit<Correction, 'owner' | 'sentUnder'> & { sentUnder: string | null }>(),
  ]);
  return results.map((c) => ({
    ...c,
    sentUnder: c.sentUnder === null ? null : (JSON.parse(c.sentUnder) as Correction['sentUnder']),
    owner: c.sourceDocId ? (ownerOf(c.sourceDocId, owners) ?? null) : null,
  }));
}

/**
 * Resolves an open correction with its note. One resolved already (by another admin, in another
 * tab) keeps the note written then: `resolved_already`.
 */
export async function resolveCorrection(
  d1: D1Database,
  projectId: string,
  eventId: string,
  note: string,
  now: number,
): Promise<'resolved' | 'resolved_already' | 'not_found'> {
  const r = await d1
    .prepare(`update corrections set status = 'resolved', note = ?, resolved_at = ? where project_id = ? and event_id = ? and status = 'open'`)
    .bind(note, now, projectId, eventId)
    .run();
  if (r.meta.changes > 0) return 'resolved';
  const found = await d1.prepare('select 1 from corrections where project_id = ? and event_id = ?').bind(projectId, eventId).first();
  return found ? 'resolved_already' : 'not_found';
}
