import type { Verdict } from '../../api/types.ts';
import type { StringKey } from '../../i18n/strings.ts';

export type ReviewAction = { answer: Verdict } | 'next' | 'previous' | 'undo' | 'note' | 'help';

/** The review queue's keys: one per answer, moving, undo, the note and this list. The help dialog lists them from here. */
export const REVIEW_KEYS: readonly { keys: string[]; action: ReviewAction; label: StringKey }[] = [
  { keys: ['1'], action: { answer: 'relevant' }, label: 'keyRelevant' },
  { keys: ['2'], action: { answer: 'not_relevant' }, label: 'keyNotRelevant' },
  { keys: ['3'], action: { answer: 'unclear' }, label: 'keyUnclear' },
  { keys: ['j', 'ArrowRight'], action: 'next', label: 'keyNext' },
  { keys: ['k', 'ArrowLeft'], action: 'previous', label: 'keyPrevious' },
  { keys: ['u'], action: 'undo', label: 'keyUndo' },
  { keys: ['n'], action: 'note', label: 'keyNote' },
  { keys: ['?'], action: 'help', label: 'keyHelp' },
];

/**
 * The action a key press asks for, if any; presses with Ctrl, Alt or Meta are the browser's. A
 * letter is read by Shift alone, not Caps Lock: J with Caps Lock on is j, Shift+j is not.
 */
export function actionFor(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>): ReviewAction | undefined {
  if (e.ctrlKey || e.altKey || e.metaKey) return undefined;
  const key = e.key.length > 1 ? e.key : e.shiftKey ? e.key.toUpperCase() : e.key.toLowerCase();
  return REVIEW_KEYS.find((k) => k.keys.includes(key))?.action;
}

/** How a key is written for the reader. */
export const keyLabel = (key: string) => ({ ArrowRight: '→', ArrowLeft: '←' })[key] ?? key;
