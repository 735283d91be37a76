import type { FeedbackEvent } from '../shared/schema/event.ts';
import type { Vote } from './session.ts';
import type { PromptTrigger } from './signals/host.ts';

/** Every event `<rag-feedback>` fires. All bubble and cross shadow roots. */
export interface RagFeedbackEventMap {
  /** A vote changed; `vote` is null when it was taken back. */
  'rf-vote': CustomEvent<{ traceId: string; vote: Vote }>;
  /** A rating was given. */
  'rf-rate': CustomEvent<{ traceId: string; stars: number }>;
  /** A reason, correction or wrong-source flag was recorded; `event` is what goes to the collector. */
  'rf-submit': CustomEvent<{ traceId: string; kind: 'attribution' | 'correction' | 'wrong_source'; event: FeedbackEvent }>;
  /** A contextual prompt appeared. */
  'rf-prompt-show': CustomEvent<{ traceId: string; promptId: string; trigger: PromptTrigger }>;
  /** A contextual prompt was answered, or dismissed. */
  'rf-prompt-answer': CustomEvent<{ traceId: string; promptId: string; answer: string }>;
  /** Any event was recorded. */
  'rf-signal': CustomEvent<{ event: FeedbackEvent }>;
}

/** Fires one of the declared events, with its declared detail, bubbling out of the shadow root. */
export function emit<K extends keyof RagFeedbackEventMap>(target: Pick<EventTarget, 'dispatchEvent'>, type: K, detail: RagFeedbackEventMap[K]['detail']): void {
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}

declare global {
  // So that `addEventListener('rf-vote', …)` knows its detail.
  interface GlobalEventHandlersEventMap extends RagFeedbackEventMap {}
}
