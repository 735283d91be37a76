import type { EventDetail, FeedbackEvent } from '../../shared/schema/event.ts';
import type { SignalType } from '../../shared/signals.ts';
import { isEndpoint } from '../endpoint.ts';
import { safely, warn } from '../guard.ts';
import { whenIdle } from '../idle.ts';
import { loadBackground } from '../load-background.ts';
import { retrying } from '../retrying.ts';
import { options } from '../settings.ts';
import { fill, typed } from '../typed.ts';
import type { RecordContext, Recorder } from './recorder.ts';
import { DEFAULT_TRANSPORT } from './transport-options.ts';

export type { RecordContext } from './recorder.ts';

/**
 * The page's one pipeline, as the first load sees it: a queue in front of the recorder, which
 * (with the outbox, transport and redaction) loads when the page is idle or at the first event.
 * Events keep the time they happened at; page-hide hooks run before the beacon leaves.
 */
class Pipeline {
  /** The recorder, made once the background chunk is there (and asked for again after a failed fetch). */
  private readonly recorder = retrying(async () => {
    const { Recorder } = await loadBackground();
    // A cap that is not a positive number would keep nothing, or everything: the default instead.
    return new Recorder({
      dbName: options.outboxName,
      cap: typed(options.outboxCap, 0) || undefined,
      transport: fill(options.transport, DEFAULT_TRANSPORT),
      warn,
    });
  });
  private readonly hideHooks = new Set<() => void>();
  /** Events made while the recorder's chunk could not be fetched: recorded once it is. */
  private readonly waiting: ((r: Recorder) => void)[] = [];

  constructor() {
    addEventListener(
      'pagehide',
      safely(() => this.hidden()),
    );
    document.addEventListener(
      'visibilitychange',
      safely(() => document.visibilityState === 'hidden' && this.hidden()),
    );
    whenIdle(this.load);
    // Offline since the page loaded: fetch the chunk once back, after a fetch still failing, if any.
    addEventListener('online', () => this.recorder().then(this.load, this.load));
  }

  private readonly load = (): void =>
    void this.recorder()
      .then((r) => {
        for (const run of this.waiting.splice(0)) safely(run)(r);
      })
      .catch(warn);

  /** Records an event (`byPerson` unless the page recorded it by itself); `then` gets it once made (not if the limiter refused it). */
  record<K extends SignalType>(ctx: RecordContext, type: K, detail: EventDetail<K>, then: (event: FeedbackEvent) => void, byPerson: boolean): void {
    if (!isEndpoint(ctx.endpoint) || !ctx.writeKey) {
      warn('not recorded: set a valid endpoint and write key', ctx);
      return;
    }
    const at = Date.now();
    const run = (r: Recorder) => {
      const event = r.record(ctx, type, detail, at, byPerson);
      if (event) then(event);
    };
    if (this.recorder.value) run(this.recorder.value);
    else {
      this.waiting.push(run);
      this.load();
    }
  }

  onHide(fn: () => void): () => void {
    this.hideHooks.add(fn);
    return () => this.hideHooks.delete(fn);
  }

  async flush(): Promise<void> {
    await (await this.recorder()).transport.flush();
  }

  async pending(): Promise<number> {
    return (await this.recorder()).pending();
  }

  private hidden(): void {
    for (const hook of this.hideHooks) safely(hook)();
    this.recorder.value?.beacon();
  }
}

let instance: Pipeline | undefined;

/** The page's one pipeline, made when the first element connects (after `configure`). */
export const pipeline = (): Pipeline => (instance ??= new Pipeline());
