/**
 * How `npm start` ends what it started. wrangler runs in its own process group (so it can be
 * stopped with its workerd children), which also means nothing ends it when `npm start` exits:
 * it must be stopped, on a failure as on Ctrl-C, or it keeps its port and the next start fails.
 */

export interface Stoppable {
  stop(): Promise<void>;
}

export interface Closable {
  close(): Promise<void>;
}

/** Runs `steps` with `server` already running; when they fail, stops it before the failure goes on. */
export async function stopOnFailure<T>(server: Stoppable, steps: () => Promise<T>): Promise<T> {
  try {
    return await steps();
  } catch (err) {
    await server.stop();
    throw err;
  }
}

/** The demo first (closing it sends its queued traces to the collector), then the collector, even when the demo fails to close. */
export async function stopAll(demo: Closable, server: Stoppable): Promise<void> {
  try {
    await demo.close();
  } finally {
    await server.stop();
  }
}
