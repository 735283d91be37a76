import type { ReactiveController } from 'lit';
import { DWELL_VISIBLE_SHARE, MIN_DWELL_MS } from '../defaults.ts';
import { safely } from '../guard.ts';
import type { SignalElement, SignalSink, TraceAware } from './host.ts';

/**
 * Answer dwell (time the answer is at least half visible, or fills half the screen, while the page is visible, reported
 * when the page is hidden or the answer goes away) and bounce (the page hidden within the
 * bounce window of the answer, with no interaction).
 */
export class DwellController implements ReactiveController, TraceAware {
  private intersecting?: boolean;
  private since: number | undefined;
  private total = 0;
  private bounced?: boolean;
  private observer: IntersectionObserver | undefined;
  private unhook: (() => void) | undefined;

  constructor(
    private readonly host: SignalElement,
    private readonly sink: SignalSink,
  ) {
    host.addController(this);
  }

  private pause(now: number): void {
    if (this.since !== undefined) this.total += now - this.since;
    this.since = undefined;
  }

  private resume(now: number): void {
    if (this.intersecting && document.visibilityState === 'visible') this.since ??= now;
  }

  private report(traceId?: string): void {
    const now = Date.now();
    this.pause(now);
    if (this.total >= MIN_DWELL_MS) this.sink.recordSignal('answer_dwell', { ms: this.total }, { interaction: false, traceId });
    this.total = 0;
  }

  private readonly onVisibility = safely(() => {
    if (document.visibilityState === 'visible') this.resume(Date.now());
  });

  hostConnected(): void {
    this.observer = new IntersectionObserver(
      safely((entries: IntersectionObserverEntry[]) => {
        const now = Date.now();
        const e = entries.at(-1)!;
        // Half of the answer on screen, or (for an answer taller than the screen) half the screen.
        const screen = e.rootBounds?.height ?? innerHeight;
        this.intersecting = e.isIntersecting && (e.intersectionRatio >= DWELL_VISIBLE_SHARE || e.intersectionRect.height >= screen * DWELL_VISIBLE_SHARE);
        if (this.intersecting) this.resume(now);
        else this.pause(now);
      }),
      { threshold: [0, 0.25, 0.5, 0.75, 1] },
    );
    this.observer.observe(this.host);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.unhook = this.sink.onPageHide(() => {
      const sinceShown = Date.now() - this.sink.shownAt;
      if (!this.bounced && !this.sink.interacted && sinceShown <= this.sink.thresholds.bounceWindowMs) {
        this.bounced = true;
        this.sink.recordSignal('bounce', { ms: sinceShown }, { interaction: false });
      }
      this.report();
    });
  }

  /** The element now shows another answer: the time so far was spent on the previous one. */
  hostTraceChanged(previous: string): void {
    this.report(previous);
    this.bounced = false;
    this.resume(Date.now());
  }

  hostDisconnected(): void {
    this.pause(Date.now());
    // Gone, unless put back at once (a keyed list moving it): a move is not an end.
    queueMicrotask(() => this.host.isConnected || this.report());
    this.observer?.disconnect();
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.unhook?.();
  }
}
