import { uuidv7 } from '../../shared/ids.ts';
import type { EventDetail, FeedbackEvent } from '../../shared/schema/event.ts';
import type { SignalType } from '../../shared/signals.ts';
import { isEndpoint } from '../endpoint.ts';
import { safely, warn } from '../guard.ts';
import { whenIdle } from '../idle.ts';
import { loadBackground } from '../load-background.ts';
import { retrying } from '../retrying.ts';
import { KEY } from '../session.ts';
import { options } from '../settings.ts';
import { readJson, writeJson } from '../storage.ts';
import type { RecordContext } from './recorder.ts';

export type { RecordContext } from './recorder.ts';

/** An event made before the recorder was there: what `record` was given, and when. */
interface Waiting {
  ctx: RecordContext;
  type: SignalType;
  detail: unknown;
  at: number;
  byPerson: boolean;
  then?: (event: FeedbackEvent) => void;
  /** The event's id, made when it happened. */
  id: string;
}

/** Events earlier pages of this tab kept for it (`hidden`), none if storage cannot be read. */
const keptForTab = () => readJson<Waiting[]>(KEY.waiting) ?? [];

/**
 * The page's one pipeline, as the first load sees it: a queue in front of the recorder, which
 * (with the outbox, transport and redaction) loads when the page is idle or at the first event.
 * Events keep the time they happened at; page-hide hooks run before the beacon leaves.
 */
class Pipeline {
  /** The recorder, made once the background chunk is there (and asked for again after a failed fetch). */
  private readonly recorder = retrying(async () => {
    const { Recorder } = await loadBackground();
    return new Recorder(options, warn);
  });
  private readonly hideHooks = new Set<() => void>();
  /** Events made while the recorder's chunk could not be fetched: recorded once it is. */
  private readonly waiting: Waiting[] = [];

  constructor() {
    addEventListener(
      'pagehide',
      safely(() => this.hidden()),
    );
    document.addEventListener(
      'visibilitychange',
      safely(() => (document.visibilityState === 'hidden' ? this.hidden() : this.recorder.value?.visible())),
    );
    whenIdle(this.load);
    // Offline since the page loaded: fetch the chunk once back, after a fetch still failing, if any.
    addEventListener('online', () => this.recorder().then(this.load, this.load));
  }

  private readonly load = (): void =>
    void this.recorder()
      .then((r) => {
        // With those an earlier page of this tab kept when it went before its chunk came.
        const kept = keptForTab();
        writeJson(KEY.waiting, []);
        for (const w of [...kept, ...this.waiting.splice(0)])
          safely(() => {
            const event = r.record(w.ctx, w.type, w.detail as never, w.at, w.byPerson, w.id);
            if (event) w.then?.(event);
          })();
      })
      .catch(warn);

  /**
   * Records an event (`byPerson` unless the page recorded it by itself); `then` gets it once made
   * (not if the limiter refused it). False when there is no valid endpoint and write key.
   */
  record<K extends SignalType>(ctx: RecordContext, type: K, detail: EventDetail<K>, then: (event: FeedbackEvent) => void, byPerson: boolean): boolean {
    if (!isEndpoint(ctx.endpoint) || !ctx.writeKey) {
      warn('not recorded: set a valid endpoint and write key', ctx);
      return false;
    }
    const at = Date.now();
    const r = this.recorder.value;
    if (r) {
      const event = r.record(ctx, type, detail, at, byPerson);
      if (event) then(event);
    } else {
      // Its id now: a duplicated tab replays the same kept events, which the collector then stores once.
      this.waiting.push({ ctx, type, detail, at, byPerson, then, id: uuidv7(at) });
      this.load();
    }
    return true;
  }

  onHide(fn: () => void): () => void {
    this.hideHooks.add(fn);
    return () => this.hideHooks.delete(fn);
  }

  async flush(): Promise<void> {
    await (await this.recorder()).transport.flush();
  }

  /** The outbox's count (while its code cannot be fetched, or IndexedDB read, the events waiting for it), and those kept for this tab. */
  pending(): Promise<number> {
    return this.recorder()
      .then((r) => r.pending())
      .catch(() => this.waiting.length)
      .then((n) => n + keptForTab().length);
  }

  private hidden(): void {
    for (const hook of this.hideHooks) safely(hook)();
    this.recorder.value?.beacon();
    // Still no recorder (a browser that does not fetch a failed import again, as Chromium 153): what
    // waits goes to the tab's session storage for its next page (the text unredacted until then, so
    // not beyond the tab), and, once stored, no longer waits here, so that it is recorded once.
    // Storage is read only when something waits: hiding happens at every switch of tabs.
    const { waiting } = this;
    if (waiting.length && writeJson(KEY.waiting, [...keptForTab(), ...waiting.map(({ then, ...w }) => w)])) waiting.length = 0;
  }
}

let instance: Pipeline | undefined;

/** The page's one pipeline, made when the first element connects (after `configure`). */
export const pipeline = (): Pipeline => (instance ??= new Pipeline());
