import { askBeforeLeaving } from '../../ui/leave-guard.ts';
import { AnswerFailures } from './answer-failures.ts';
import { type AnswerApi, AnswerLedger } from './answer-ledger.ts';
import { NoteDrafts } from './note-drafts.ts';
import { UndoHistory } from './undo-history.ts';

/** What a reviewer has under way: answers on their way, the answers to take back, notes typed and not saved, failures not yet said. */
export interface ReviewerWork {
  ledger: AnswerLedger;
  history: UndoHistory;
  drafts: NoteDrafts;
  /** Answers and undos not saved, said on whichever review page is shown when they fail. */
  failures: AnswerFailures;
}

let current: { key: string | null; work: ReviewerWork } | undefined;

/**
 * The reviewer's work for the tab's life, not the review page's: leaving the queue for a trace and
 * coming back keeps the notes typed, the answers to take back and those still on their way. Signed
 * in with another key, the work starts afresh.
 */
export function reviewerWork(key: string | null, api: AnswerApi): ReviewerWork {
  if (!current || current.key !== key)
    current = { key, work: { ledger: new AnswerLedger(api), history: new UndoHistory(), drafts: new NoteDrafts(), failures: new AnswerFailures() } };
  return current.work;
}

/** Whether closing the tab now would lose some of it: an answer not yet saved, or a note typed and not saved. */
export const unsavedWork = (work: ReviewerWork | undefined): boolean => !!work && (work.ledger.anySending() || work.drafts.anyUnsaved());

// Asks before the tab closes or leaves the console, and before signing out (an answer sent again
// would go without the key), while work is unsaved, whichever page is shown.
askBeforeLeaving('signOutUnsaved', () => unsavedWork(current?.work));
