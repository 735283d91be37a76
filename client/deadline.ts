/**
 * Runs one attempt against the collector with a deadline: its signal aborts after `ms`, and the
 * attempt is given up then even if it ignores the signal (a wrapper or binding that never reads
 * it, a body that stops arriving), so no wait on a hung collector outlasts the timeout.
 * `ms` 0 means no deadline.
 */
export async function withDeadline<T>(ms: number, attempt: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (ms <= 0) return attempt(undefined);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${ms} ms`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  const running = attempt(controller.signal);
  // Given up on, it may still fail later: that is no one's to hear.
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
