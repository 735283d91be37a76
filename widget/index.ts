import { warn } from './guard.ts';
import { whenIdle } from './idle.ts';
import { loadBackground } from './load-background.ts';
import { pipeline } from './pipeline/index.ts';
import { RagFeedbackElement } from './rag-feedback/rag-feedback.ts';
import { configure, type RagFeedbackOptions } from './settings.ts';

export type { RagFeedbackEventMap } from './events.ts';
export type { FeedbackState } from './rag-feedback/feedback-controller.ts';
export { RagFeedbackElement } from './rag-feedback/rag-feedback.ts';
export type { RagFeedbackOptions } from './settings.ts';
export type { Strings } from './strings.ts';

const api = {
  /** Sets page-wide options (endpoint, write key, strings, config, …) before or after elements render. */
  configure(opts: RagFeedbackOptions): void {
    configure(opts);
  },
  /** Sends waiting events now; resolves when this attempt is over (never rejects). */
  flush(): Promise<void> {
    return pipeline()
      .flush()
      .catch(() => undefined);
  },
  /** How many events wait in the outbox (all tabs of this origin); never rejects. */
  pending(): Promise<number> {
    return pipeline().pending();
  },
  /** The element class, for subclassing. */
  Element: RagFeedbackElement,
};

/**
 * The page-wide API: configure once, flush on demand, see what is waiting. It is the one of the
 * copy of the widget that defined the element, kept on its class: a second copy (the script loaded
 * twice, the module from two URLs) hands that one out, since the page's elements read its options.
 */
export const RagFeedback: typeof api = ((customElements.get('rag-feedback') as { RagFeedback?: typeof api }).RagFeedback ??= api);

// Fetched as the widget runs, not at first use: a page that goes offline before anyone clicks
// must still have the code that writes to IndexedDB, and the popover.
void loadBackground().catch(warn);
// Events left by earlier visits go out even before this page shows an answer.
whenIdle(() => void pipeline());
