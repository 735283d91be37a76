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
  /** What each observer last saw: enough of the answer on screen, and the answer across the screen's middle. */
  private sees: boolean[] = [];
  /** When the clock last started, while it runs. */
  private visibleSince: number | undefined;
  private dwellMs = 0;
  private bounced?: boolean;
  private observers: IntersectionObserver[] = [];
  private unhook: (() => void) | undefined;

  constructor(
    private readonly host: SignalElement,
    private readonly sink: SignalSink,
  ) {
    host.addController(this);
  }

  private stopClock(now: number): void {
    if (this.visibleSince !== undefined) this.dwellMs += now - this.visibleSince;
    this.visibleSince = undefined;
  }

  private startClock(now: number): void {
    if (this.sees.includes(true) && document.visibilityState === 'visible') this.visibleSince ??= now;
  }

  private report(traceId?: string): void {
    const now = Date.now();
    this.stopClock(now);
    if (this.dwellMs >= MIN_DWELL_MS) this.sink.recordSignal('answer_dwell', { ms: this.dwellMs }, { interaction: false, traceId });
    this.dwellMs = 0;
  }

  private readonly onVisibility = safely(() => {
    if (document.visibilityState === 'visible') this.startClock(Date.now());
  });

  hostConnected(): void {
    // Half of the answer on screen, or (for an answer taller than the screen) half the screen. An answer more than
    // four screens tall shows under a quarter of itself while it fills the screen, so no threshold fires for it: a
    // second observer's root is the screen's middle line (root bounds of no height, so the rule reads "crosses it"),
    // which an answer taller than the screen crosses exactly while it fills half the screen. In a frame of another
    // origin the line is not drawn (the margin does not apply there), and that observer only repeats the first.
    this.observers = ['0px', '-50% 0px'].map((rootMargin, i) => {
      const observer = new IntersectionObserver(
        safely((entries: IntersectionObserverEntry[]) => {
          const now = Date.now();
          const e = entries.at(-1)!;
          const screen = e.rootBounds?.height ?? innerHeight;
          this.sees[i] = e.isIntersecting && (e.intersectionRatio >= DWELL_VISIBLE_SHARE || e.intersectionRect.height >= screen * DWELL_VISIBLE_SHARE);
          if (this.sees.includes(true)) this.startClock(now);
          else this.stopClock(now);
        }),
        { rootMargin, threshold: [0, 0.25, 0.5, 0.75, 1] },
      );
      observer.observe(this.host);
      return observer;
    });
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
    this.startClock(Date.now());
  }

  hostDisconnected(): void {
    this.stopClock(Date.now());
    // Off the page nothing is seen (pointed at another answer meanwhile, it must not resume); put back,
    // the observers say anew what they see.
    this.sees = [];
    // Gone, unless put back at once (a keyed list moving it): a move is not an end.
    queueMicrotask(() => this.host.isConnected || this.report());
    for (const o of this.observers) o.disconnect();
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.unhook?.();
  }
}
