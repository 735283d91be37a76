import type { ReactiveController } from 'lit';
import { MIN_PREVIEW_MS, SOURCE_OPENED_WITHIN_MS } from '../defaults.ts';
import { safely } from '../guard.ts';
import type { SignalElement, SignalSink, TraceAware } from './host.ts';

/**
 * Citation clicks, and citation dwell: time away on an opened source (from the click's page
 * hide to the return), or time an in-page preview (`data-preview-for="<chunk id>"`) is visible.
 */
export class CitationController implements ReactiveController, TraceAware {
  private clicked: { chunkId: string; at: number } | undefined;
  private away: { chunkId: string; since: number } | undefined;
  private readonly previewsVisible = new Map<Element, number>();
  private observer: IntersectionObserver | undefined;
  private mutations: MutationObserver | undefined;
  private unhook: (() => void) | undefined;

  constructor(
    private readonly host: SignalElement,
    private readonly sink: SignalSink,
  ) {
    host.addController(this);
  }

  private readonly onClick = safely((e: MouseEvent) => {
    // A click, or a middle-click (auxclick) opening the source in a new tab; not the right button's menu.
    if (e.button > 1) return;
    const citation = (e.target as Element | null)?.closest?.<HTMLElement>('[data-chunk-id]');
    const chunkId = citation?.dataset.chunkId;
    if (!chunkId || !this.host.contains(citation!)) return;
    this.sink.recordSignal('citation_click', { chunkId });
    this.clicked = { chunkId, at: Date.now() };
  });

  private readonly onVisibility = safely(() => {
    const now = Date.now();
    if (document.visibilityState === 'hidden') {
      if (this.clicked && now - this.clicked.at < SOURCE_OPENED_WITHIN_MS) this.away = { chunkId: this.clicked.chunkId, since: now };
      this.clicked = undefined;
    } else {
      // Previews still on screen are read again from now: their intersection did not change, so only
      // observing them anew has the observer say so.
      this.observer!.disconnect();
      for (const el of this.host.querySelectorAll('[data-preview-for]')) this.observer!.observe(el);
      if (this.away) this.dwell(this.away.chunkId, now - this.away.since, 'away');
      this.away = undefined;
    }
  });

  private dwell(chunkId: string, ms: number, mode: 'away' | 'preview', traceId?: string): void {
    this.sink.recordSignal('citation_dwell', { chunkId, ms, mode }, { interaction: false, traceId });
    if (ms >= this.sink.thresholds.focusedDwellMs) this.sink.triggerPrompt('citation_dwell');
  }

  private previewEnded(el: Element, now: number, traceId?: string): void {
    const since = this.previewsVisible.get(el);
    this.previewsVisible.delete(el);
    const chunkId = (el as HTMLElement).dataset.previewFor;
    if (since !== undefined && chunkId && now - since >= MIN_PREVIEW_MS) this.dwell(chunkId, now - since, 'preview', traceId);
  }

  /** The element now shows another answer: previews seen so far were the previous one's sources. */
  hostTraceChanged(previous: string): void {
    const now = Date.now();
    for (const el of [...this.previewsVisible.keys()]) {
      this.previewEnded(el, now, previous);
      this.previewsVisible.set(el, now);
    }
    this.clicked = this.away = undefined;
  }

  hostConnected(): void {
    this.host.addEventListener('click', this.onClick);
    this.host.addEventListener('auxclick', this.onClick);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.observer = new IntersectionObserver(
      safely((entries: IntersectionObserverEntry[]) => {
        const now = Date.now();
        for (const entry of entries) {
          // Seen since before a move: still the same read.
          if (entry.isIntersecting) this.previewsVisible.set(entry.target, this.previewsVisible.get(entry.target) ?? now);
          else this.previewEnded(entry.target, now);
        }
      }),
    );
    // Previews present now, and those an answer streaming in (or re-rendered, or marked later) brings.
    const watch = () => {
      for (const el of this.host.querySelectorAll('[data-preview-for]')) this.observer!.observe(el);
    };
    watch();
    (this.mutations = new MutationObserver(watch)).observe(this.host, { childList: true, subtree: true, attributeFilter: ['data-preview-for'] });
    // On page hide, close open preview dwells so the beacon carries them (those still on screen begin
    // again when the page is visible).
    this.unhook = this.sink.onPageHide(this.endPreviews);
  }

  private readonly endPreviews = () => {
    const now = Date.now();
    for (const el of [...this.previewsVisible.keys()]) this.previewEnded(el, now);
  };

  hostDisconnected(): void {
    this.host.removeEventListener('click', this.onClick);
    this.host.removeEventListener('auxclick', this.onClick);
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.observer?.disconnect();
    this.mutations?.disconnect();
    this.unhook?.();
    // Gone, unless put back at once (a keyed list moving it): what was read so far counts.
    queueMicrotask(() => this.host.isConnected || this.endPreviews());
  }
}
