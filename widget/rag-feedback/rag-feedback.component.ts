import { html, LitElement, type PropertyDeclarations } from 'lit';
import { guardMethods, safely } from '../guard.ts';
import { CitationController } from '../signals/citations.ts';
import { CopyController } from '../signals/copy.ts';
import { DwellController } from '../signals/dwell.ts';
import type { TraceAware } from '../signals/host.ts';
import type { Reason } from '../ui/host.ts';
import { panelStyles } from '../ui/panel.styles.ts';
import { renderVoting } from '../ui/voting.ts';
import { FeedbackController, type FeedbackState } from './feedback-controller.ts';
import { PopoverController } from './popover-controller.ts';
import { styles } from './rag-feedback.styles.ts';

/**
 * Feedback for one RAG answer. Put the answer and its citations (marked `data-chunk-id`) inside
 * it; it records votes, reasons, corrections and wrong-source flags, and implicit signals
 * (copies, citation clicks and dwell, answer dwell, rephrases, bounces), all tied to `trace-id`.
 *
 * @tag rag-feedback
 * @slot - The answer: text and citation links.
 * @event rf-vote - A vote changed: `detail` is `{ traceId, vote: 'up' | 'down' | null }`.
 * @event rf-rate - A rating was given: `detail` is `{ traceId, stars }`.
 * @event rf-submit - A reason, correction or wrong-source flag was sent: `detail` is `{ traceId, kind, event }`.
 * @event rf-prompt-show - A contextual prompt appeared: `detail` is `{ traceId, promptId, trigger }`.
 * @event rf-prompt-answer - A contextual prompt was answered: `detail` is `{ traceId, promptId, answer }`.
 * @event rf-signal - Any event was recorded: `detail` is `{ event }`.
 * @csspart bar - The row of vote buttons.
 * @csspart button - Every button.
 * @csspart vote-up - The thumbs-up button.
 * @csspart vote-down - The thumbs-down button.
 * @csspart star - Each rating star button.
 * @csspart panel - The attribution popover and the correction form.
 * @csspart prompt - A contextual prompt.
 * @csspart reason - Each reason in the attribution popover.
 * @csspart flag - Each source in the wrong-source step.
 * @csspart submit - The popover's send buttons.
 * @cssprop --rf-fg - Text colour.
 * @cssprop --rf-muted - Secondary text colour.
 * @cssprop --rf-accent - Colour of pressed buttons and links.
 * @cssprop --rf-accent-fg - Text on the accent colour.
 * @cssprop --rf-link - Colour of link-style buttons.
 * @cssprop --rf-surface - Background of the popover and prompts.
 * @cssprop --rf-border - Borders of buttons and fields.
 * @cssprop --rf-focus - Focus ring.
 * @cssprop --rf-radius - Corner radius.
 * @cssprop --rf-font-size - Base font size.
 */
export class RagFeedbackElement extends LitElement {
  // The popover's styles too: they share most of their words with the element's, so they cost
  // less here than compressed in the background chunk on their own.
  static override styles = [styles, panelStyles];

  // Declared here rather than with Lit's decorators: the same reactive properties, without the
  // ~0.4 KB (brotli) the decorators and their helper add to the first load.
  static override properties: PropertyDeclarations = {
    traceId: { attribute: 'trace-id' },
    sessionId: { attribute: 'session-id' },
    query: {},
    endpoint: {},
    writeKey: { attribute: 'write-key' },
    locale: {},
    theme: { reflect: true },
    answeredAt: { type: Number, attribute: 'answered-at' },
  };

  /** The trace this answer came from: every event is about it. */
  declare traceId: string;
  /** The chat session (default: one per browser tab). */
  declare sessionId: string | undefined;
  /** The question asked, for rephrase detection within the session. */
  declare query: string | undefined;
  /** The collector's base URL (default: `RagFeedback.configure({ endpoint })`). */
  declare endpoint: string | undefined;
  /** The project's public write key (default: `RagFeedback.configure({ writeKey })`). */
  declare writeKey: string | undefined;
  /** UI language, e.g. "en" or "zh-CN". */
  declare locale: string | undefined;
  /** "light", "dark", or unset to follow the page's colour scheme. */
  declare theme: 'light' | 'dark' | undefined;
  /** When the answer was produced, epoch ms (for history re-rendered after a reload). */
  declare answeredAt: number | undefined;

  private readonly feedback = new FeedbackController(this);
  private readonly popoverUi = new PopoverController(this, this.feedback);
  /** What belongs to the current trace and must be closed when it changes. */
  private readonly traceAware: TraceAware[] = [new CitationController(this, this.feedback), new DwellController(this, this.feedback), this.feedback];

  constructor() {
    super();
    new CopyController(this, this.feedback);
  }

  // The host page calls these (appendChild, innerHTML…): like every method here they are
  // guarded (see the end of this file), so nothing escapes into the page.
  override connectedCallback(): void {
    super.connectedCallback();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
  }

  protected override performUpdate(): void {
    super.performUpdate();
  }

  /**
   * A list that recycles elements (virtualised chats, index keys) may point a live element at
   * another answer: what the user did so far belongs to the previous trace, and the element
   * starts over for the new one. Runs as the property is set, while the old id is still known.
   */
  override requestUpdate(name?: PropertyKey, oldValue?: unknown, options?: Parameters<LitElement['requestUpdate']>[2]): void {
    if (name === 'traceId' && typeof oldValue === 'string' && oldValue !== this.traceId) {
      for (const c of this.traceAware) safely(() => c.hostTraceChanged(oldValue))();
    }
    // Another collector or key may serve another project's config.
    if ((name === 'endpoint' || name === 'writeKey') && oldValue !== this[name]) this.feedback.hostWhereChanged();
    super.requestUpdate(name, oldValue, options);
  }

  /** Thumbs up or down; the same thumb again takes the vote back. Double clicks count once. */
  castVote(direction: 'up' | 'down'): void {
    this.feedback.castVote(direction);
  }

  /** A 1-5 rating (rating mode); 1 or 2 stars asks what went wrong. */
  rate(stars: number): void {
    this.feedback.rate(stars);
  }

  /** Records a reason for the thumbs-down; "other" and "wrong source" ask for more first. */
  chooseReason(reason: Reason, text?: string): void {
    this.feedback.chooseReason(reason, text);
  }

  /** Flags one cited source as wrong for this answer. */
  flagWrongSource(chunkId: string): void {
    this.feedback.flagWrongSource(chunkId);
  }

  /** Sends a correction: what the answer should say, and optionally where that is written. */
  submitCorrection(text: string, source?: string): void {
    this.feedback.submitCorrection(text, source);
  }

  /** The chat UI regenerated this answer. */
  reportRegenerate(): void {
    this.feedback.reportRegenerate();
  }

  /** A copy made by the host's own copy button (no `copy` event reaches the element). */
  reportCopy(chars: number, chunkId?: string): void {
    this.feedback.reportCopy(chars, chunkId);
  }

  /** Answers the contextual prompt on show. */
  answerPrompt(answer: string): void {
    this.feedback.answerPrompt(answer);
  }

  /** What the user has told us about this answer so far. */
  get feedbackState(): FeedbackState {
    return this.feedback.state;
  }

  protected override render() {
    const { feedback } = this;
    const s = feedback.strings;
    return html`
      <slot></slot>
      ${renderVoting(feedback, s, feedback.config.rating, feedback.vote, feedback.rating)}
      ${this.popoverUi.render(feedback.locale)}
      <div class="sr-only" role="status" aria-live="polite">${feedback.announcement}</div>
    `;
  }
}

guardMethods(RagFeedbackElement.prototype);

declare global {
  interface HTMLElementTagNameMap {
    'rag-feedback': RagFeedbackElement;
  }
}
