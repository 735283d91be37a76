import { askBeforeSigningOut } from '../app/signing-out.ts';
import type { StringKey } from '../i18n/strings.ts';

/**
 * While `ask()` says so, the browser asks before the tab is closed or leaves the console (its own
 * question), and the console asks `signOutQuestion` before signing out (the work's next call would
 * go without the key). Answers a function that stops both.
 */
export function askBeforeLeaving(signOutQuestion: StringKey, ask: () => boolean): () => void {
  const beforeUnload = (e: BeforeUnloadEvent) => {
    if (!ask()) return;
    e.preventDefault();
    // Older browsers ask only when a return value is set.
    e.returnValue = '';
  };
  globalThis.addEventListener?.('beforeunload', beforeUnload);
  const stopAskingBeforeSigningOut = askBeforeSigningOut(signOutQuestion, ask);
  return () => {
    globalThis.removeEventListener?.('beforeunload', beforeUnload);
    stopAskingBeforeSigningOut();
  };
}

/**
 * Runs `work` asking before the tab is closed or left and before signing out (`signOutQuestion`)
 * while it is under way, and only then: for a change that takes several calls (an erasure), which
 * either leaves half done.
 */
export async function guardLeaving<T>(work: () => Promise<T>, signOutQuestion: StringKey): Promise<T> {
  const stopAsking = askBeforeLeaving(signOutQuestion, () => true);
  try {
    return await work();
  } finally {
    stopAsking();
  }
}
