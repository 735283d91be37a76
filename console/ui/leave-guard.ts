import { SigningOut } from '../app/signing-out.ts';
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
  const signingOut = (e: Event) => {
    if (ask()) (e as SigningOut).ask(signOutQuestion);
  };
  globalThis.addEventListener?.('beforeunload', beforeUnload);
  globalThis.addEventListener?.(SigningOut.type, signingOut);
  return () => {
    globalThis.removeEventListener?.('beforeunload', beforeUnload);
    globalThis.removeEventListener?.(SigningOut.type, signingOut);
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
