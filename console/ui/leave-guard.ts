import { askBeforeSigningOut } from '../app/signing-out.ts';
import type { StringKey } from '../i18n/strings.ts';

/** Asks before the tab closes or leaves the console (the browser's own question). */
export const askFirst = (e: BeforeUnloadEvent) => {
  e.preventDefault();
  // Older browsers ask only when a return value is set.
  e.returnValue = '';
};

/**
 * Runs `work` with the browser asking before the tab is closed or left while it is under way, and
 * the console asking `signOutQuestion` before signing out (its next call would go without the key),
 * and only then: for a change that takes several calls (an erasure), which either leaves half done.
 */
export async function guardLeaving<T>(work: () => Promise<T>, signOutQuestion: StringKey): Promise<T> {
  addEventListener('beforeunload', askFirst);
  const stopAsking = askBeforeSigningOut(signOutQuestion, () => true);
  try {
    return await work();
  } finally {
    removeEventListener('beforeunload', askFirst);
    stopAsking();
  }
}
