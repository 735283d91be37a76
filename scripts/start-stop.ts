/**
 * How `npm start` ends what it started. wrangler runs in its own process group (so it can be
 * stopped with its workerd children), which also means that neither `npm start` exiting nor the
 * Ctrl-C the terminal sends it reaches wrangler: it must be stopped, on a failure as on Ctrl-C at
 * any moment, even while it is still starting, or it keeps its port and the next start fails.
 * `npm start` runs node with tsx's loader (`node --import tsx`), not the tsx command: that command
 * relays Ctrl-C to a node process of its own and kills it when it does not answer within some
 * 60 ms, which a start holding the event loop (the demo indexing its corpus) cannot, and nothing
 * would stop wrangler then. The shell npm runs that command in `exec`s it: npm passes a SIGTERM
 * (a process manager stopping it) to its child alone, and a shell left between would die of it,
 * leaving the start running.
 */
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a failed start waits for a Ctrl-C to be heard before blaming the failure: the start's
 * wrangler commands run synchronously (migrations, the dev project), so the Ctrl-C that ends such a
 * command, as it ends every process of the group, reaches our handler only after its failure.
 */
const SIGNAL_HEARD_MS = 100;

/** What has been started so far, to be stopped the last started first (the demo sends its queued traces to the collector as it closes). */
export class StartedSoFar {
  readonly #stopping = new AbortController();
  readonly #stops: (() => Promise<void>)[] = [];
  #stopped: Promise<void> | undefined;
  readonly #onLost: (reason: string) => void;

  /** `onLost`: told when a process watched exits on its own (`watch`). */
  constructor(onLost: (reason: string) => void = () => {}) {
    this.#onLost = onLost;
  }

  /**
   * Watches a process started: one that exits before stopping has begun (it crashed, or was killed
   * on its own) is lost, and `onLost` hears it, since what was started with it would go on without it
   * (the demo's feedback refused by no collector).
   */
  watch(child: ChildProcess, name: string): void {
    child.once('exit', (code, signal) => {
      if (!this.signal.aborted) this.#onLost(`${name} exited (${signal ?? `code ${code}`}) on its own`);
    });
  }

  /** Aborted once stopping has begun: a start under way (wrangler waiting for its health check) gives up and stops what it spawned. */
  get signal(): AbortSignal {
    return this.#stopping.signal;
  }

  /**
   * Starts something that `stop` ends. Stopping while it still starts cuts it short through the
   * signal, waits for it to settle and, if it started all the same, stops it. Once stopping has
   * begun, nothing more starts.
   */
  start<T>(start: (signal: AbortSignal) => Promise<T>, stop: (started: T) => Promise<void>): Promise<T> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    const starting = start(this.signal);
    // A start that fails has stopped what it spawned itself.
    this.#stops.push(() => starting.then(stop, () => undefined));
    return starting;
  }

  /** Stops everything started, the last first, each even when one before fails to stop (that failure is thrown after). Called again: the same stopping. */
  stopAll(): Promise<void> {
    this.#stopping.abort(new Error('stopped while starting'));
    this.#stopped ??= (async () => {
      const failures: unknown[] = [];
      for (let stop = this.#stops.pop(); stop; stop = this.#stops.pop()) await stop().catch((err: unknown) => failures.push(err));
      if (failures.length > 0) throw failures[0];
    })();
    return this.#stopped;
  }
}

/**
 * Runs `startup` with Ctrl-C (and SIGTERM) answered from its very first moment: everything started
 * so far is stopped, the last started first, and the process exits 130 (143 on SIGTERM) while it
 * is still starting, 0 once it has started (Ctrl-C is how `npm start` ends). A startup that fails
 * stops what it started before its failure goes on; so does a watched process lost, exiting 1.
 */
export async function startStoppably<T>(startup: (started: StartedSoFar) => Promise<T>): Promise<T> {
  // A process watched exits on its own: everything else is stopped too, and the start fails.
  const started = new StartedSoFar((reason) => {
    console.error(`error: ${reason}: stopping the rest`);
    void stopAndExit(1);
  });
  let up = false;
  let exiting: Promise<never> | undefined;
  const stopAndExit = (code: number) =>
    (exiting ??= started.stopAll().then(
      () => process.exit(code),
      (err: unknown) => {
        console.error(`error: stopping failed: ${err instanceof Error ? err.message : String(err)}`);
        process.exit(1);
      },
    ));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stopAndExit(up ? 0 : 128 + constants.signals[signal]));
  const result = await startup(started).catch(async (err: unknown) => {
    // Cut short by Ctrl-C: the stopping under way exits.
    if (!exiting) await sleep(SIGNAL_HEARD_MS);
    if (exiting) return exiting;
    await started.stopAll();
    throw err;
  });
  // Ctrl-C once all had started, before the caller heard: the same.
  if (exiting) return exiting;
  up = true;
  return result;
}
