import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Prompt, WidgetConfig } from '../../shared/schema/config.ts';
import { PROMPT_DISMISSED } from '../../shared/schema/config-defaults.ts';
import type { EventDetail } from '../../shared/schema/event.ts';
import type { SignalType } from '../../shared/signals.ts';
import { LOW_RATING, REPEAT_WINDOW_MS } from '../defaults.ts';
import { emit, type RagFeedbackEventMap } from '../events.ts';
import { guardMethods, safely, warn } from '../guard.ts';
import { localized } from '../localized.ts';
import { pipeline, type RecordContext } from '../pipeline/index.ts';
import { countThumbsDown, storedVote, storeVote, tabSessionId, type Vote } from '../session.ts';
import { loadConfig, normalizeConfig, onConfigure, options } from '../settings.ts';
import type { PromptTrigger, RecordOptions, SignalSink, TraceAware } from '../signals/host.ts';
import { countShown, eligiblePrompt } from '../signals/prompts.ts';
import { forgetQuery, noteQuery } from '../signals/rephrase.ts';
import { reportVitalsTo } from '../signals/vitals.ts';
import { stringsFor, VOTING_STRINGS, type VotingStrings } from '../strings.ts';
import { typed } from '../typed.ts';
import { type Citation, type FeedbackActions, type Panel, REASONS, type Reason } from '../ui/host.ts';
import { written } from './popover-controller.ts';

/**
 * The element as its feedback sees it: its attributes (documented on the element), the answer's
 * citations in its light DOM, the events it fires, and its update cycle.
 */
export interface FeedbackHost extends ReactiveControllerHost, Pick<HTMLElement, 'dispatchEvent' | 'querySelectorAll' | 'isConnected' | 'shadowRoot'> {
  readonly traceId: string;
  readonly sessionId?: string;
  readonly query?: string;
  readonly endpoint?: string;
  readonly writeKey?: string;
  readonly locale?: string;
  readonly answeredAt?: number;
}

/** What the user has told us about one answer so far (`feedbackState`). */
export interface FeedbackState {
  /** The answer's trace. */
  traceId: string;
  /** The live vote: null when none was cast, or it was taken back. */
  vote: Vote;
  /** The rating given in rating mode, 1-5. */
  rating: number | null;
  /** Chunk ids flagged as wrong sources. */
  flagged: string[];
  /** Whether a correction was sent for this answer: one an answer, so the popover offers no other. */
  corrected: boolean;
  /** The popover's open step, or "closed". */
  panel: Panel['kind'];
}

const CLOSED: Panel = { kind: 'closed' };

/**
 * The element's methods are called from plain JavaScript: arguments they cannot mean
 * (`chooseReason('bogus')`, `reportCopy(-1)`) are ignored, and named in debug output, rather than
 * recorded for the collector to refuse.
 */
const meant = (ok: boolean, ...args: unknown[]): boolean => {
  if (!ok) warn('ignored', ...args);
  return ok;
};

/**
 * Rephrase checks of all answers on the page, one after another. While the page loads they wait for
 * its scripts: answers in its HTML start as the script defines the element, and a `configure()` in a
 * later script (its session id, its thresholds) is what they are checked under.
 */
let rephraseChecks: Promise<void> =
  globalThis.document?.readyState === 'loading'
    ? new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
    : Promise.resolve();

/**
 * The feedback on one answer, and its rules: votes and their flips, the rating, the popover's
 * steps, wrong-source flags and contextual prompts, each recorded as an event about the trace
 * and announced as an `rf-*` event. It starts when the element has a trace and is on the page
 * (restoring the vote, loading the project's config) and starts over when the trace changes.
 * Besides the answer's citations it touches no DOM: the element renders it, and the popover
 * controller moves focus.
 */
export class FeedbackController implements ReactiveController, FeedbackActions, SignalSink, TraceAware {
  /** The live vote. */
  vote!: Vote;
  /** The rating given, 1-5. */
  rating!: number | null;
  /** The popover's open step. */
  panel!: Panel;
  /** The contextual prompt on show. */
  prompt!: Prompt | null;
  /** Chunk ids flagged as wrong sources. */
  flagged!: Set<string>;
  /** A correction was sent for this answer: the popover offers no other. */
  corrected!: boolean;
  /** The last change, for screen readers. */
  announcement!: string;
  /** The project's config merged with the page's (defaults until it arrives). */
  config: WidgetConfig = normalizeConfig(options.config);
  /** Whether the user did anything with this answer yet (a bounce needs that they did not). */
  interacted!: boolean;
  private started!: boolean;
  private startedAt = Date.now();
  /** The last vote's direction and time: the same again within REPEAT_WINDOW_MS is a double click, the other a change of mind. */
  private lastVote!: [direction: string, at: number];
  /** When the page last reported a regenerate. */
  private regeneratedAt = 0;

  constructor(private readonly host: FeedbackHost) {
    // Nothing told yet, as for an answer shown anew.
    this.hostTraceChanged();
    host.addController(this);
  }

  // ---- the trace's lifecycle ----

  hostUpdated(): void {
    // A trace id set after the element went on the page.
    if (this.host.isConnected) this.hostConnected();
  }

  /** The element now shows another answer: start over for it. */
  hostTraceChanged(): void {
    this.started = this.interacted = this.corrected = false;
    this.lastVote = ['', 0];
    this.vote = this.rating = this.prompt = null;
    this.panel = CLOSED;
    this.flagged = new Set();
    this.announcement = '';
  }

  /** Starts on the trace once the element has one and is on the page. */
  hostConnected(): void {
    const { traceId } = this.host;
    onConfigure.add(this.reconfigure);
    if (this.started || !traceId) return;
    this.started = true;
    this.startedAt = Date.now();
    // A vote restored (the answer mounted anew, as a framework does) was an interaction: no bounce for it.
    if ((this.vote = storedVote(traceId))) this.interacted = true;
    reportVitalsTo((detail) => this.recordSignal('web_vitals', detail, { interaction: false }));
    this.reconfigure();
    // Queued now, in the order answers appear, so each query is compared with the one before it.
    rephraseChecks = rephraseChecks.then(() => this.checkRephrase()).catch(warn);
  }

  hostDisconnected(): void {
    onConfigure.delete(this.reconfigure);
  }

  /** The element's endpoint or write key changed: load the config of where its events now go. */
  hostWhereChanged(): void {
    if (this.started) this.reconfigure();
  }

  /** The project's config for the element's endpoint and key, and the page's over it; the newest load wins. */
  private readonly reconfigure = safely((): Promise<WidgetConfig> => {
    const { endpoint, writeKey } = this.context;
    const config = (this.configLoad = loadConfig(endpoint, writeKey));
    this.host.requestUpdate();
    return config.then((c) => {
      if (config === this.configLoad) this.config = c;
      this.host.requestUpdate();
      return c;
    });
  }) as () => Promise<WidgetConfig>;
  private configLoad?: Promise<WidgetConfig>;

  private async checkRephrase(): Promise<void> {
    const { rephraseWindowMs, rephraseSimilarity } = (await this.configLoad)?.thresholds ?? this.thresholds;
    const { traceId } = this.host;
    const { sessionId } = this.context;
    const query = typed(this.host.query, '');
    if (!query) return;
    const rephrase = await noteQuery(sessionId, traceId, query, this.shownAt, rephraseWindowMs, rephraseSimilarity);
    if (!rephrase) return;
    // The signal belongs to the FIRST answer: it is the one that did not work.
    const { firstTraceId, similarity, gapMs } = rephrase;
    this.recordSignal('rephrase_within_session', { nextTraceId: traceId, similarity, gapMs }, { interaction: false, traceId: firstTraceId });
    this.triggerPrompt('rephrase');
  }

  // ---- what the signals read ----

  /** Where events go and what they are about: the attributes, else the page-wide options. */
  get context(): RecordContext {
    const { traceId, sessionId, endpoint, writeKey } = this.host;
    // A value of another type (set as a property in plain JavaScript, `new URL(…)` for the endpoint) counts as none given.
    // Spaces around a key or an endpoint (read from a file with its line break) are no part of it, as the collector reads
    // the key; left on the endpoint, they would be inside every URL made from it.
    const key = (typed(writeKey, '') || typed(options.writeKey, '')).trim();
    return {
      traceId: typed(traceId, ''),
      sessionId: typed(sessionId, '') || typed(options.sessionId, '') || tabSessionId(),
      endpoint: (typed(endpoint, '') || typed(options.endpoint, '')).trim(),
      // A key a request header cannot carry, not printable ASCII (the README's `rfw_…` copied with its ellipsis), would make every
      // request fail as if offline: it is none, as one the collector does not know, so nothing is recorded for it (the debug
      // output says to set a valid key) and no config fetched. The rule of shared/header-key.ts, written here: imported, it
      // cost the widget's build some 50 bytes brotli.
      writeKey: /[^!-~]/.test(key) ? '' : key,
    };
  }

  /** The UI language: the attribute, the page-wide option, the page's `lang`, the browser's. */
  get locale(): string {
    // A locale of another type (plain JavaScript) counts as none given.
    return typed(this.host.locale, '') || typed(options.locale, '') || document.documentElement.lang || navigator.language;
  }

  /** The bar's strings for that language, with the page's overrides (the popover's come with its code). */
  get strings(): VotingStrings {
    return stringsFor(this.locale, options.strings, VOTING_STRINGS);
  }

  /** Current thresholds (defaults until the project's config arrives). */
  get thresholds(): WidgetConfig['thresholds'] {
    return this.config.thresholds;
  }

  /** When the answer was shown (or the `answered-at` attribute). */
  get shownAt(): number {
    // One that is not a time (`answered-at="abc"`) counts as none given.
    return typed(this.host.answeredAt, 0) || this.startedAt;
  }

  /** What the user has told us about this answer so far. */
  get state(): FeedbackState {
    return { traceId: this.host.traceId, vote: this.vote, rating: this.rating, flagged: [...this.flagged], corrected: this.corrected, panel: this.panel.kind };
  }

  /** False when the element has no trace (nor is `traceId`, a previous one, given), endpoint or write key to record it with. */
  recordSignal<K extends SignalType>(type: K, detail: EventDetail<K>, { interaction = true, traceId, onRecorded }: RecordOptions = {}): boolean {
    // What belonged to the previous answer is recorded against it though the element now has no trace id.
    if (!(traceId || this.context.traceId)) return false;
    if (interaction && !traceId) this.interacted = true;
    return pipeline().record(
      { ...this.context, ...(traceId ? { traceId } : { shownAt: this.shownAt }) },
      type,
      detail,
      (event) => {
        emit(this.host, 'rf-signal', { event });
        onRecorded?.(event);
      },
      interaction,
    );
  }

  onPageHide(fn: () => void): () => void {
    return pipeline().onHide(fn);
  }

  triggerPrompt(trigger: PromptTrigger): void {
    if (this.prompt) return;
    const { sessionId } = this.context;
    const prompt = eligiblePrompt(this.config.prompts, trigger, sessionId);
    if (!prompt) return;
    countShown(prompt, sessionId);
    this.prompt = prompt;
    // Read out as it appears: it takes no focus from what the user is doing.
    this.announcement = localized(prompt.text, this.locale);
    this.host.requestUpdate();
    this.recordSignal('prompt_shown', { promptId: prompt.id, trigger }, { interaction: false });
    this.tell('rf-prompt-show', { promptId: prompt.id, trigger });
  }

  // ---- explicit feedback ----

  castVote(direction: 'up' | 'down'): void {
    const now = Date.now();
    if (!meant(['up', 'down'].includes(direction), direction) || (direction === this.lastVote[0] && now - this.lastVote[1] < REPEAT_WINDOW_MS)) return;
    this.lastVote = [direction, now];
    const next: Vote = this.vote === direction ? null : direction;
    this.vote = next;
    storeVote(this.host.traceId, next);
    const s = this.strings;
    this.announcement = next === 'up' ? s.voteUpRecorded : next === 'down' ? s.voteDownRecorded : s.voteCleared;
    this.host.requestUpdate();
    this.recordSignal(next ? `thumbs_${next}` : 'vote_cleared', {});
    this.tell('rf-vote', { vote: next });
    if (this.judged(next === 'down') && countThumbsDown(this.context.sessionId, this.context.traceId) >= this.thresholds.repeatedThumbsDown)
      this.triggerPrompt('repeated_thumbs_down');
  }

  rate(stars: number): void {
    if (!meant([1, 2, 3, 4, 5].includes(stars), stars) || this.rating === stars) return;
    this.rating = stars;
    this.host.requestUpdate();
    this.recordSignal('rating', { stars });
    this.tell('rf-rate', { stars });
    this.judged(stars <= LOW_RATING);
  }

  /**
   * A vote or rating given: a bad one asks what went wrong, unless the popover holds what the user wrote (a second
   * thumbs-down while they write a correction); another takes the question back. Says whether it was bad.
   */
  private judged(bad: boolean): boolean {
    if (bad) {
      if (!written(this.host)) this.showPanel({ kind: 'reasons' });
    } else if (this.panel.kind === 'reasons') this.closePanel();
    return bad;
  }

  chooseReason(reason: Reason, text?: string): void {
    if (!meant(REASONS.includes(reason) && typeof (text ?? '') === 'string', reason, text)) return;
    if (reason === 'other' && text === undefined) {
      this.showPanel({ kind: 'other' });
      return;
    }
    if (reason === 'wrong_source' && this.citations().length > 0 && this.panel.kind !== 'sources') {
      this.submit('attribution', { reason });
      this.showPanel({ kind: 'sources' });
      return;
    }
    this.thank(this.submit('attribution', text ? { reason, text } : { reason }));
  }

  flagWrongSource(chunkId: string): void {
    if (!meant(!!typed(chunkId, ''), chunkId) || this.flagged.has(chunkId)) return;
    this.flagged.add(chunkId);
    this.host.requestUpdate();
    this.submit('wrong_source', { chunkId });
  }

  submitCorrection(text: string, source?: string): void {
    if (!meant(typeof text === 'string', text)) return;
    text = text.trim();
    // A source of another type (a URL object) counts as none given, rather than losing the correction to a TypeError.
    source = typed(source, '').trim();
    if (text) this.thank((this.corrected = this.submit('correction', source ? { text, source } : { text })));
  }

  /** The chat UI regenerated this answer. */
  reportRegenerate(): void {
    const now = Date.now();
    // A double click on the page's button counts once, as a vote's does: its gap, a few ms longer, would make it another event.
    if (now - this.regeneratedAt < REPEAT_WINDOW_MS) return;
    this.regeneratedAt = now;
    this.recordSignal('regenerate', { gapMs: now - this.shownAt });
    // After this answer's own check, so its replacement is not counted as rephrasing it too.
    const { sessionId } = this.context;
    rephraseChecks = rephraseChecks.then(() => forgetQuery(sessionId));
  }

  /** A copy made by the host's own copy button. */
  reportCopy(chars: number, chunkId?: string): void {
    if (!meant(Number.isSafeInteger(chars) && chars >= 0 && typeof (chunkId ?? '') === 'string', chars, chunkId)) return;
    if (chunkId) this.recordSignal('copy_source', { chunkId, chars });
    else this.recordSignal('copy_answer', { chars });
    if (chars >= this.thresholds.largeCopyChars) this.triggerPrompt('large_copy');
  }

  answerPrompt(answer: string): void {
    // One of the prompt's choices, or its dismiss link's answer.
    if (!this.prompt || !meant(answer === PROMPT_DISMISSED || this.prompt.choices.some((c) => c.id === answer), answer)) return;
    const promptId = this.prompt.id;
    this.prompt = null;
    this.host.requestUpdate();
    this.recordSignal('prompt_answered', { promptId, answer });
    this.tell('rf-prompt-answer', { promptId, answer });
  }

  showPanel(panel: Panel): void {
    this.panel = panel;
    this.host.requestUpdate();
  }

  closePanel(): void {
    this.showPanel(CLOSED);
  }

  /** Thanks for what was recorded; nothing recorded (no trace, endpoint or key) gets no thanks. */
  private thank(recorded: boolean): void {
    this.showPanel(recorded ? { kind: 'thanks' } : CLOSED);
  }

  citations(): Citation[] {
    return [...this.host.querySelectorAll<HTMLElement>('[data-chunk-id]')].map((el) => ({
      chunkId: el.dataset.chunkId!,
      label: (el.getAttribute('title') || el.textContent || el.dataset.chunkId!).trim(),
    }));
  }

  /** Tells the page what became of this answer (`rf-vote`, `rf-rate`, …), naming it. */
  private tell<K extends Exclude<keyof RagFeedbackEventMap, 'rf-signal'>>(type: K, detail: Omit<RagFeedbackEventMap[K]['detail'], 'traceId'>): void {
    emit(this.host, type, { traceId: this.host.traceId, ...detail } as RagFeedbackEventMap[K]['detail']);
  }

  /** Records an explicit submission and announces it with `rf-submit`. */
  private submit<K extends 'attribution' | 'correction' | 'wrong_source'>(kind: K, detail: EventDetail<K>): boolean {
    // The event's own trace: one made after the recorder's code came may be about an answer the element no longer shows.
    return this.recordSignal(kind, detail, { onRecorded: (event) => emit(this.host, 'rf-submit', { traceId: event.traceId, kind, event }) });
  }
}

// Clicks in the popover call these directly: like the element's, nothing they throw reaches the page.
guardMethods(FeedbackController.prototype);
