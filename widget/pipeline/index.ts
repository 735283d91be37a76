import type { EventDetail, FeedbackEvent } from '../../shared/schema/event.ts';
import type { SignalType } from '../../shared/signals.ts';
import { isEndpoint } from '../endpoint.ts';
import { safely, warn } from '../guard.ts';
import { whenIdle } from '../idle.ts';
import { options } from '../settings.ts';
import type { RecordContext, Recorder } from './recorder.ts';

export type { RecordContext } from './recorder.ts';

type RecorderModule = typeof import('../background.ts');
const importRecorder = () => import('../background.ts');
/**
 * Fetched as soon as the widget runs (not at first use): a page that goes offline before anyone
 * clicks must still have the code that writes to IndexedDB.
 */
let recorderModule: Promise<RecorderModule> = importRecorder();

/**
 * The page's one pipeline, as the first load sees it: a queue in front of the recorder, which
 * (with the outbox, transport and redaction) loads when the page is idle or at the first event.
 * Events keep the time they happened at; page-hide hooks run before the beacon leaves.
 */
class Pipeline {
  private recorder: Recorder | undefined;
  private loading: Promise<Recorder> | undefined;
  private readonly hideHooks = new Set<() => void>();

  constructor() {
    addEventListener('pagehide', safely(() => this.hidden()));
    document.addEventListener('visibilitychange', safely(() => document.visibilityState === 'hidden' && this.hidden()));
    whenIdle(() => void this.load().catch(warn));
    addEventListener('online', () => void this.load().catch(warn));
  }

  load(): Promise<Recorder> {
    return (this.loading ??= recorderModule.then(
      ({ Recorder }) => (this.recorder = new Recorder({ dbName: options.outboxName, cap: options.outboxCap, transport: options.transport, warn })),
      (err: unknown) => {
        // The chunk could not be fetched (offline since the page loaded): try again next time.
        recorderModule = importRecorder();
        this.loading = undefined;
        throw err;
      },
    ));
  }

  /** Records an event; `then` gets it once made (not if the limiter refused it). */
  record<K extends SignalType>(ctx: RecordContext, type: K, detail: EventDetail<K>, then: (event: FeedbackEvent) => void): void {
    if (!isEndpoint(ctx.endpoint) || !ctx.writeKey) return warn('not recorded: set a valid endpoint and write key', ctx);
    const at = Date.now();
    const run = (r: Recorder) => {
      const event = r.record(ctx, type, detail, at);
      if (event) then(event);
    };
    if (this.recorder) run(this.recorder);
    else void this.load().then(run).catch(warn);
  }

  onHide(fn: () => void): () => void {
    this.hideHooks.add(fn);
    return () => this.hideHooks.delete(fn);
  }

  async flush(): Promise<void> {
    await (await this.load()).transport.flush();
  }

  async pending(): Promise<number> {
    return (await this.load()).pending();
  }

  private hidden(): void {
    for (const hook of this.hideHooks) safely(hook)();
    this.recorder?.beacon();
  }
}

let instance: Pipeline | undefined;

/** The page's one pipeline, made when the first element connects (after `configure`). */
export const pipeline = (): Pipeline => (instance ??= new Pipeline());
