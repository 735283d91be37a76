/**
 * How long past its deadline a step (an attempt, a wait between attempts) may stay unsettled before
 * it is taken for lost and done again: on Workers, the runtime never settles a fetch nor fires a
 * timer that a request which has ended (returned, out of `waitUntil` time, its caller gone) left
 * behind. In Node it is time for a timer late on a busy event loop.
 */
export const LOST_AFTER_DEADLINE_MS = 2_000;

/** An attempt given up on when its `ms` ran out. */
export class DeadlineError extends Error {}

/**
 * Runs one attempt against the collector with a deadline: its signal aborts after `ms`, and the
 * attempt is given up then even if it ignores the signal (a wrapper or binding that never reads
 * it, a body that stops arriving), so no wait on a hung collector outlasts the timeout.
 * `ms` 0 means no deadline. `stop` gives it up the same way when it aborts (a flush out of time).
 */
export async function withDeadline<T>(ms: number, attempt: (signal: AbortSignal) => Promise<T>, stop?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const ended = new Promise<never>((_, reject) => {
    const end = (error: unknown) => {
      controller.abort(error);
      reject(error);
    };
    if (ms > 0) timer = setTimeout(() => end(new DeadlineError(`no answer within ${ms} ms`)), ms);
    if (stop) {
      onStop = () => end(stop.reason);
      if (stop.aborted) onStop();
      else stop.addEventListener('abort', onStop, { once: true });
    }
  });
  ended.catch(() => undefined);
  const running = attempt(controller.signal);
  // Given up on, it may still fail later: that is no one's to hear.
  running.catch(() => undefined);
  try {
    return await Promise.race([running, ended]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (onStop) stop?.removeEventListener('abort', onStop);
  }
}

/** Waits `ms`, or less when `stop` aborts: a retry's wait must not keep a process that gave up alive. */
export function sleep(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (stop.aborted) done();
    else stop.addEventListener('abort', done, { once: true });
  });
}
