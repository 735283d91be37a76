/** Asks before the tab closes or leaves the console (the browser's own question). */
export const askFirst = (e: BeforeUnloadEvent) => {
  e.preventDefault();
  // Older browsers ask only when a return value is set.
  e.returnValue = '';
};

/**
 * Runs `work` with the browser asking before the tab is closed or left while it is under way, and
 * only then: for a change that takes several calls (an erasure), which a closed tab leaves half done.
 */
export async function guardLeaving<T>(work: () => Promise<T>): Promise<T> {
  addEventListener('beforeunload', askFirst);
  try {
    return await work();
  } finally {
    removeEventListener('beforeunload', askFirst);
  }
}
