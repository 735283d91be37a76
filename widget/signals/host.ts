import type { ReactiveControllerHost } from 'lit';
import type { PROMPT_TRIGGERS, WidgetConfig } from '../../shared/schema/config.ts';
import type { EventDetail, FeedbackEvent } from '../../shared/schema/event.ts';
import type { SignalType } from '../../shared/signals.ts';

export type PromptTrigger = (typeof PROMPT_TRIGGERS)[number];

export interface RecordOptions {
  /** False for passive signals (dwell, bounce, prompts shown): they do not end a bounce, and the session's rate limit meters only them. */
  interaction?: boolean;
  /** The trace the event is about, when not the element's current one. */
  traceId?: string;
  /** Called with the event once made (not if the limiter refused it); not `then`, which would make the options thenable. */
  onRecorded?: (event: FeedbackEvent) => void;
}

/** A controller told that its element now shows another answer: close what belongs to `previous`. */
export interface TraceAware {
  hostTraceChanged(previous: string): void;
}

/** The element an implicit-signal controller watches: its light DOM, its events, its lifecycle. */
export type SignalElement = ReactiveControllerHost & HTMLElement;

/** Where the implicit-signal controllers report what they saw (the element's feedback). */
export interface SignalSink {
  /** Records an event about the current trace (or `traceId`); `interaction: false` for passive signals. */
  recordSignal<K extends SignalType>(type: K, detail: EventDetail<K>, options?: RecordOptions): void;
  /** Current thresholds (defaults until the project's config arrives). */
  readonly thresholds: WidgetConfig['thresholds'];
  /** When the answer was shown (or the `answered-at` attribute). */
  readonly shownAt: number;
  /** Whether the user did anything with this answer yet. */
  readonly interacted: boolean;
  /** Shows a configured contextual prompt for this trigger, if any and within its caps. */
  triggerPrompt(trigger: PromptTrigger): void;
  /** A copy of the answer, or of the cited source `chunkId`, `chars` long. */
  reportCopy(chars: number, chunkId?: string): void;
  /** Runs `fn` when the page is hidden, before the beacon leaves. */
  onPageHide(fn: () => void): () => void;
}
