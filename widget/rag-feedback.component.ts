import { adoptStyles, html, LitElement, nothing, type PropertyValues } from 'lit';
import type { Prompt, WidgetConfig } from '../shared/schema/config.ts';
import type { ATTRIBUTION_REASONS, EventDetail, FeedbackEvent } from '../shared/schema/event.ts';
import type { SignalType } from '../shared/signals.ts';
import { guardMethods, safely, warn } from './guard.ts';
import { loadBackground } from './load-background.ts';
import { pipeline, type RecordContext } from './pipeline/index.ts';
import { CITATION_LABEL_CHARS, LOW_RATING, REPEAT_WINDOW_MS } from './defaults.ts';
import { countThumbsDown, storedVote, storeVote, tabSessionId, type Vote } from './session.ts';
import { loadConfig, normalizeConfig, options } from './settings.ts';
import { CitationController } from './signals/citations.ts';
import { CopyController } from './signals/copy.ts';
import { DwellController } from './signals/dwell.ts';
import type { PromptTrigger, RecordOptions, SignalHost, TraceAware } from './signals/host.ts';
import { countShown, eligiblePrompt } from './signals/prompts.ts';
import { noteQuery } from './signals/rephrase.ts';
import { reportVitalsTo } from './signals/vitals.ts';
import { stringsFor, type Strings } from './strings.ts';
import { styles } from './rag-feedback.styles.ts';
import type { Panel } from './ui/panel.ts';
import { renderVoting } from './ui/voting.ts';

export type Reason = (typeof ATTRIBUTION_REASONS)[number];

/** Rephrase checks of all answers on the page, one after another. */
let rephraseChecks: Promise<void> = Promise.resolve();

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
export class RagFeedbackElement extends LitElement implements SignalHost {
  static override styles = styles;

  static override properties = {
    traceId: { type: String, attribute: 'trace-id' },
    sessionId: { type: String, attribute: 'session-id' },
    query: { type: String },
    endpoint: { type: String },
    writeKey: { type: String, attribute: 'write-key' },
    locale: { type: String },
    theme: { type: String, reflect: true },
    answeredAt: { type: Number, attribute: 'answered-at' },
    vote: { state: true },
    rating: { state: true },
    panel: { state: true },
    prompt: { state: true },
    config: { state: true },
    announcement: { state: true },
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

  declare protected vote: Vote;
  declare protected rating: number | null;
  declare protected panel: Panel;
  declare protected prompt: { prompt: Prompt; trigger: PromptTrigger } | null;
  declare protected config: WidgetConfig;
  declare protected announcement: string;

  /** Chunk ids flagged as wrong sources for this answer. */
  readonly flagged = new Set<string>();
  private connectedAt = Date.now();
  private everInteracted = false;
  private lastVoteAt = 0;
  private started = false;
  private panelStylesAdopted = false;
  /** Controllers that hold signals of the current trace (dwell, open sources). */
  private readonly traceAware: TraceAware[];

  constructor() {
    super();
    this.vote = null;
    this.rating = null;
    this.panel = { kind: 'closed' };
    this.prompt = null;
    this.config = normalizeConfig(options.config);
    this.announcement = '';
    new CopyController(this);
    this.traceAware = [new CitationController(this), new DwellController(this)];
  }

  // ---- SignalHost ----

  get thresholds() {
    return this.config.thresholds;
  }

  get shownAt(): number {
    return this.answeredAt ?? this.connectedAt;
  }

  get interacted(): boolean {
    return this.everInteracted;
  }

  private get context(): RecordContext {
    return {
      traceId: this.traceId,
      sessionId: this.sessionId || options.sessionId || tabSessionId(),
      endpoint: this.endpoint || options.endpoint || '',
      writeKey: this.writeKey || options.writeKey || '',
    };
  }

  /** The UI language: the attribute, the page-wide option, the page's `lang`, the browser's. */
  get resolvedLocale(): string {
    return this.locale || options.locale || document.documentElement.lang || navigator.language || 'en';
  }

  get strings(): Strings {
    return stringsFor(this.resolvedLocale, options.strings);
  }

  recordSignal<K extends SignalType>(type: K, detail: EventDetail<K>, { interaction = true, traceId, then }: RecordOptions = {}): void {
    if (!this.traceId) return;
    if (interaction && !traceId) this.everInteracted = true;
    this.recordFor({ ...this.context, ...(traceId && { traceId }) }, type, detail, then);
  }

  private recordFor<K extends SignalType>(ctx: RecordContext, type: K, detail: EventDetail<K>, then?: (event: FeedbackEvent) => void): void {
    pipeline().record(ctx, type, detail, (event) => {
      this.emit('rf-signal', { event });
      then?.(event);
    });
  }

  onPageHide(fn: () => void): () => void {
    return pipeline().onHide(fn);
  }

  triggerPrompt(trigger: PromptTrigger): void {
    if (this.prompt) return;
    const ctx = this.context;
    const prompt = eligiblePrompt(this.config.prompts, trigger, ctx.sessionId);
    if (!prompt) return;
    countShown(prompt, ctx.sessionId);
    this.prompt = { prompt, trigger };
    this.recordSignal('prompt_shown', { promptId: prompt.id, trigger }, { interaction: false });
    this.emit('rf-prompt-show', { traceId: this.traceId, promptId: prompt.id, trigger });
  }

  // ---- lifecycle ----

  // The host page calls these (appendChild, innerHTML…): like every method here they are
  // guarded (see the end of this file), so nothing escapes into the page.
  override connectedCallback(): void {
    super.connectedCallback();
    this.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
  }

  protected override performUpdate(): void {
    super.performUpdate();
  }

  private start(): void {
    if (this.started || !this.traceId) return;
    this.started = true;
    this.connectedAt = Date.now();
    this.vote = storedVote(this.traceId);
    reportVitalsTo((detail) => this.recordSignal('web_vitals', detail, { interaction: false }));
    const ctx = this.context;
    const config = loadConfig(ctx.endpoint, ctx.writeKey).then((c) => (this.config = c));
    // Queued now, in the order answers appear, so each query is compared with the one before it.
    rephraseChecks = rephraseChecks.then(() => this.checkRephrase(ctx, config)).catch(warn);
  }

  private async checkRephrase(ctx: RecordContext, config: Promise<WidgetConfig>): Promise<void> {
    const { rephraseWindowMs, rephraseSimilarity } = (await config).thresholds;
    if (!this.query) return;
    const rephrase = await noteQuery(ctx.sessionId, this.traceId, this.query, this.shownAt, rephraseWindowMs, rephraseSimilarity);
    if (!rephrase) return;
    // The signal belongs to the FIRST answer: it is the one that did not work.
    this.recordFor({ ...ctx, traceId: rephrase.firstTraceId }, 'rephrase_within_session', {
      nextTraceId: this.traceId,
      similarity: rephrase.similarity,
      gapMs: rephrase.gapMs,
    });
    this.triggerPrompt('rephrase');
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('traceId') && this.traceId && !this.started && this.isConnected) this.start();
  }

  /**
   * A list that recycles elements (virtualised chats, index keys) may point a live element at
   * another answer: what the user did so far belongs to the previous trace, and the element
   * starts over for the new one. Runs as the property is set, while the old id is still known.
   */
  override requestUpdate(name?: PropertyKey, oldValue?: unknown, options?: Parameters<LitElement['requestUpdate']>[2]): void {
    if (name === 'traceId' && this.started && typeof oldValue === 'string' && oldValue !== this.traceId) this.retire(oldValue);
    super.requestUpdate(name, oldValue, options);
  }

  private retire(previous: string): void {
    for (const c of this.traceAware) safely(() => c.hostTraceChanged(previous))();
    this.started = false;
    this.everInteracted = false;
    this.lastVoteAt = 0;
    this.vote = null;
    this.rating = null;
    this.panel = { kind: 'closed' };
    this.prompt = null;
    this.flagged.clear();
    this.announcement = '';
  }

  // ---- explicit feedback ----

  /** Thumbs up or down; the same thumb again takes the vote back. Double clicks count once. */
  castVote(direction: 'up' | 'down'): void {
    const now = Date.now();
    if (now - this.lastVoteAt < REPEAT_WINDOW_MS) return;
    this.lastVoteAt = now;
    const next: Vote = this.vote === direction ? null : direction;
    this.vote = next;
    storeVote(this.traceId, next);
    const s = this.strings;
    this.announcement = next === 'up' ? s.voteUpRecorded : next === 'down' ? s.voteDownRecorded : s.voteCleared;
    this.recordSignal(next === 'up' ? 'thumbs_up' : next === 'down' ? 'thumbs_down' : 'vote_cleared', {});
    this.emit('rf-vote', { traceId: this.traceId, vote: next });
    if (next === 'down') {
      this.openPanel({ kind: 'reasons' });
      if (countThumbsDown(this.context.sessionId) >= this.config.thresholds.repeatedThumbsDown) this.triggerPrompt('repeated_thumbs_down');
    } else if (this.panel.kind === 'reasons') {
      this.closePanel();
    }
  }

  /** A 1-5 rating (rating mode); 1 or 2 stars asks what went wrong. */
  rate(stars: number): void {
    if (this.rating === stars) return;
    this.rating = stars;
    this.recordSignal('rating', { stars });
    this.emit('rf-rate', { traceId: this.traceId, stars });
    if (stars <= LOW_RATING) this.openPanel({ kind: 'reasons' });
  }

  /** Records a reason for the thumbs-down; "other" and "wrong source" ask for more first. */
  chooseReason(reason: Reason, text?: string): void {
    if (reason === 'other' && text === undefined) return this.openPanel({ kind: 'other' });
    if (reason === 'wrong_source' && this.citations().length > 0 && this.panel.kind !== 'sources') {
      this.submit('attribution', { reason });
      return this.openPanel({ kind: 'sources' });
    }
    this.submit('attribution', text ? { reason, text } : { reason });
    this.openPanel({ kind: 'thanks' });
  }

  /** Flags one cited source as wrong for this answer. */
  flagWrongSource(chunkId: string): void {
    if (this.flagged.has(chunkId)) return;
    this.flagged.add(chunkId);
    this.submit('wrong_source', { chunkId });
    this.requestUpdate();
  }

  /** Sends a correction: what the answer should say, and optionally where that is written. */
  submitCorrection(text: string, source?: string): void {
    if (!text.trim()) return;
    this.submit('correction', source?.trim() ? { text: text.trim(), source: source.trim() } : { text: text.trim() });
    this.openPanel({ kind: 'thanks' });
  }

  /** The chat UI regenerated this answer. */
  reportRegenerate(): void {
    this.recordSignal('regenerate', { gapMs: Math.max(0, Date.now() - this.shownAt) });
  }

  /** A copy made by the host's own copy button (no `copy` event reaches the element). */
  reportCopy(chars: number, chunkId?: string): void {
    if (chunkId) this.recordSignal('copy_source', { chunkId, chars });
    else this.recordSignal('copy_answer', { chars });
    if (chars >= this.config.thresholds.largeCopyChars) this.triggerPrompt('large_copy');
  }

  /** Answers the contextual prompt on show. */
  answerPrompt(answer: string): void {
    if (!this.prompt) return;
    const promptId = this.prompt.prompt.id;
    this.prompt = null;
    this.recordSignal('prompt_answered', { promptId, answer });
    this.emit('rf-prompt-answer', { traceId: this.traceId, promptId, answer });
  }

  /** What the user has told us about this answer so far. */
  get feedbackState() {
    return { traceId: this.traceId, vote: this.vote, rating: this.rating, flagged: [...this.flagged], panel: this.panel.kind };
  }

  /** Citations inside the answer, for the wrong-source list. */
  citations(): { chunkId: string; label: string }[] {
    return [...this.querySelectorAll<HTMLElement>('[data-chunk-id]')].map((el) => ({
      chunkId: el.dataset.chunkId!,
      label: (el.getAttribute('title') || el.textContent || el.dataset.chunkId!).trim().slice(0, CITATION_LABEL_CHARS),
    }));
  }

  // ---- panel and focus ----

  openPanel(panel: Panel): void {
    this.panel = panel;
    this.focusPanel();
  }

  /** The popover takes focus once rendered; Escape or Close gives it back to the thumbs-down button. */
  private focusPanel(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[data-autofocus]')?.focus());
  }

  closePanel(): void {
    const hadFocus = this.renderRoot.querySelector('.panel')?.contains(this.shadowRoot?.activeElement ?? null);
    this.panel = { kind: 'closed' };
    if (hadFocus) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('[part~="vote-down"], [part~="star"]')?.focus());
  }

  /** Records an explicit submission and announces it with `rf-submit`. */
  private submit<K extends 'attribution' | 'correction' | 'wrong_source'>(kind: K, detail: EventDetail<K>): void {
    this.recordSignal(kind, detail, { then: (event) => this.emit('rf-submit', { traceId: this.traceId, kind, event }) });
  }

  private emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  protected override render() {
    const s = this.strings;
    const lazyUi = loadBackground.value;
    const needsLazy = this.panel.kind !== 'closed' || this.prompt !== null;
    if (needsLazy && !lazyUi) {
      // Clicked before the lazy parts arrived: render again (and focus the popover) when they do.
      void loadBackground()
        .then(() => {
          this.requestUpdate();
          if (this.panel.kind !== 'closed') this.focusPanel();
        })
        .catch(warn);
    }
    if (lazyUi && !this.panelStylesAdopted && this.shadowRoot) {
      adoptStyles(this.shadowRoot, [styles, lazyUi.panelStyles]);
      this.panelStylesAdopted = true;
    }
    return html`
      <slot></slot>
      ${renderVoting(this, s, this.config.rating, this.vote, this.rating)}
      ${this.panel.kind === 'closed' || !lazyUi ? nothing : lazyUi.renderPanel(this, s, this.panel)}
      ${this.prompt && lazyUi ? lazyUi.renderPrompt(this, this.prompt.prompt, this.resolvedLocale, s) : nothing}
      <div class="sr-only" role="status" aria-live="polite">${this.announcement}</div>
    `;
  }
}

guardMethods(RagFeedbackElement.prototype);

declare global {
  interface HTMLElementTagNameMap {
    'rag-feedback': RagFeedbackElement;
  }
  interface GlobalEventHandlersEventMap {
    'rf-vote': CustomEvent<{ traceId: string; vote: Vote }>;
    'rf-rate': CustomEvent<{ traceId: string; stars: number }>;
    'rf-submit': CustomEvent<{ traceId: string; kind: 'attribution' | 'correction' | 'wrong_source'; event: FeedbackEvent }>;
    'rf-prompt-show': CustomEvent<{ traceId: string; promptId: string; trigger: PromptTrigger }>;
    'rf-prompt-answer': CustomEvent<{ traceId: string; promptId: string; answer: string }>;
    'rf-signal': CustomEvent<{ event: FeedbackEvent }>;
  }
}
