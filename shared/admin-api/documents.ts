/** What `GET /v1/admin/documents`, `/owners` and `/corrections` answer: one shape for the collector and the console. */

export interface OwnerRule {
  /** A document id, `*` matching any run of characters. */
  pattern: string;
  /** Who fixes those documents: a name, a team, an address. */
  owner: string;
}

export interface FlaggedDocument {
  sourceDocId: string;
  /** '*' for the document as a whole. */
  sourceDocVersion: string;
  owner: string | null;
  /** The nightly tests it failed (see `collector/loop/documents.ts`). */
  failed: ('badAnswers' | 'reasked')[];
  /** The same, in English sentences with their figures. */
  reasons: string[];
  counts: Record<string, number>;
  negativeP: number | null;
  requeryP: number | null;
  evidenceTraceIds: string[];
  firstFlagged: string;
  lastFlagged: string;
}

/**
 * A correction is open until someone resolves it with a note. The one list the collector's column,
 * its `?status=` check and the console's filter are made from.
 */
export const CORRECTION_STATUSES = ['open', 'resolved'] as const;
export type CorrectionStatus = (typeof CORRECTION_STATUSES)[number];

export interface Correction {
  eventId: string;
  /** The answer it is about (an earlier turn's, when the multi-turn attribution moved it there), and its question. */
  traceId: string;
  query: string;
  /** The later answer it was sent under, when the attribution moved it onto an earlier one; else null. */
  sentUnder: { traceId: string; query: string } | null;
  text: string;
  source: string | null;
  sourceDocId: string | null;
  /** An open one's: its document's owner by the current rules; a resolved one's: the owner it was routed to when resolved. */
  owner: string | null;
  confidence: number;
  status: CorrectionStatus;
  note: string | null;
  resolvedAt: number | null;
  createdAt: number;
}
