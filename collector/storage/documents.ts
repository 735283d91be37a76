import type { Correction, FlaggedDocument, OwnerRule } from '../../shared/admin-api/documents.ts';
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

/** `corrections.resolved_owner` of one resolved while no rule matched its document (null: resolved before owners were recorded). */
const NO_OWNER = '';

/** The owner a correction is routed to by the rules: its document's, null without one or with no rule matching. */
function routedOwner(sourceDocId: string | null, owners: readonly OwnerRule[]): string | null {
  return sourceDocId ? (ownerOf(sourceDocId, owners) ?? null) : null;
}

/**
 * Corrections of one status, newest first, each with its owner and the answer it is about: an
 * earlier turn's, as routing took it, when the attribution moved it there and that answer is still
 * stored (read here, so an erased or purged one is not shown), with the later answer it was sent
 * under. An open one's owner is its document's now; a resolved one's, the owner it was routed to
 * when resolved (by the current rules for one resolved before that was recorded).
 */
export async function correctionsOf(d1: D1Database, projectId: string, status: Correction['status'], limit: number): Promise<Correction[]> {
  const [owners, { results }] = await Promise.all([
    ownersOf(d1, projectId),
    d1
      .prepare(
        `select c.event_id as eventId, coalesce(t.trace_id, c.trace_id) as traceId, coalesce(t.query, c.query) as query,
           case when t.trace_id is not null then json_object('traceId', c.trace_id, 'query', c.query) end as sentUnder,
           c.text, c.source, c.source_doc_id as sourceDocId, c.confidence, c.status, c.note, c.resolved_at as resolvedAt, c.resolved_owner as resolvedOwner, c.created_at as createdAt
         from corrections c left join traces t on t.project_id = c.project_id and t.trace_id = c.attributed_trace_id
         where c.project_id = ? and c.status = ? order by c.created_at desc limit ?`,
      )
      .bind(projectId, status, limit)
      .all<Omit<Correction, 'owner' | 'sentUnder'> & { sentUnder: string | null; resolvedOwner: string | null }>(),
  ]);
  return results.map(({ resolvedOwner, ...c }) => ({
    ...c,
    sentUnder: c.sentUnder === null ? null : (JSON.parse(c.sentUnder) as Correction['sentUnder']),
    owner: resolvedOwner === null ? routedOwner(c.sourceDocId, owners) : resolvedOwner === NO_OWNER ? null : resolvedOwner,
  }));
}

/** Tries at resolving one correction that the nightly job re-routes meanwhile, each time with its new document. */
const RESOLVE_TRIES = 3;

/**
 * Resolves an open correction with its note and the owner it is routed to now, which the resolved
 * inbox keeps listing it under whatever the rules say later. One resolved already (by another
 * admin, in another tab) keeps the note written then: `resolved_already`. One re-routed under each
 * of the tries is left open: `rerouted`, for the admin to resolve again.
 */
export async function resolveCorrection(
  d1: D1Database,
  projectId: string,
  eventId: string,
  note: string,
  now: number,
): Promise<'resolved' | 'resolved_already' | 'rerouted' | 'not_found'> {
  for (let tries = 1; ; tries++) {
    const [owners, found] = await Promise.all([
      ownersOf(d1, projectId),
      d1
        .prepare('select status, source_doc_id as sourceDocId from corrections where project_id = ? and event_id = ?')
        .bind(projectId, eventId)
        .first<{ status: Correction['status']; sourceDocId: string | null }>(),
    ]);
    if (!found) return 'not_found';
    if (found.status !== 'open') return 'resolved_already';
    // Read once more after the last try's write, which another admin's resolving may have beaten.
    if (tries > RESOLVE_TRIES) return 'rerouted';
    // Written only while it is open and routed by the document read (the nightly job re-routes open ones).
    const r = await d1
      .prepare(
        `update corrections set status = 'resolved', note = ?, resolved_at = ?, resolved_owner = ?
         where project_id = ? and event_id = ? and status = 'open' and source_doc_id is ?`,
      )
      .bind(note, now, routedOwner(found.sourceDocId, owners) ?? NO_OWNER, projectId, eventId, found.sourceDocId)
      .run();
    if (r.meta.changes > 0) return 'resolved';
  }
}
