import { ATTRIBUTION_REASONS, type AttributionReason } from '../../shared/schema/reasons.ts';

/** Why a thumbs-down happened: a choice of the attribution popover. */
export type Reason = AttributionReason;

/** The reasons, in the popover's order: the collector's. */
export const REASONS: readonly Reason[] = ATTRIBUTION_REASONS;

/** Which step of the popover is open (a new object each time a step is shown). */
export type Panel = { kind: 'closed' } | { kind: 'reasons' } | { kind: 'other' } | { kind: 'sources' } | { kind: 'correction' } | { kind: 'thanks' };

/** A citation inside the answer, as the wrong-source list shows it. */
export interface Citation {
  /** The chunk id the trace gave the citation (`data-chunk-id`). */
  chunkId: string;
  /** Its title or text (the list shortens it). */
  label: string;
}

/** What the vote buttons, the popover and the prompts act on: the answer's feedback, never the element. */
export interface FeedbackActions {
  /** Thumbs up or down; the same thumb again takes the vote back. */
  castVote(direction: 'up' | 'down'): void;
  /** A 1-5 rating (rating mode). */
  rate(stars: number): void;
  /** A reason for the thumbs-down; "other" and "wrong source" ask for more first. */
  chooseReason(reason: Reason, text?: string): void;
  /** Flags one cited source as wrong. */
  flagWrongSource(chunkId: string): void;
  /** A correction: what the answer should say, and optionally where that is written. */
  submitCorrection(text: string, source?: string): void;
  /** Answers (or dismisses) the contextual prompt on show. */
  answerPrompt(answer: string): void;
  /** Shows a step of the popover. */
  showPanel(panel: Panel): void;
  /** Closes the popover. */
  closePanel(): void;
  /** Chunk ids flagged as wrong sources so far. */
  readonly flagged: ReadonlySet<string>;
  /** Whether a correction was sent for this answer: one an answer, as one flag a source. */
  readonly corrected: boolean;
  /** Citations inside the answer, for the wrong-source list. */
  citations(): Citation[];
}
