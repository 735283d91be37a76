import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import { REVIEW_STATUSES } from '../../../shared/admin-api/review.ts';
import { api } from '../../api/client.ts';
import { retryingTransient } from '../../api/retry.ts';
import type { ReviewItem, ReviewItemTrace, ReviewQueue, ReviewStatus, Verdict } from '../../api/types.ts';
import { adminKey } from '../../app/admin-key.ts';
import { navigate, paths, type Route } from '../../app/router.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { dialogStyles } from '../../ui/dialog.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import { filterSelect } from '../../ui/filter-select.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import type { Words } from '../../ui/words.ts';
import { changedElsewhere, itemGone } from './answer-ledger.ts';
import { queueCounts } from './queue-counts.ts';
import { renderItem, renderTraces } from './review-item.ts';
import { actionFor, keyLabel, REVIEW_KEYS, type ReviewAction } from './review-keys.ts';
import { styles } from './review-page.styles.ts';
import { type ReviewApi, ReviewSession } from './review-session.ts';
import { reviewerWork } from './reviewer-work.ts';
import { trainingCount } from './training-count.ts';

const VERDICTS: readonly { verdict: Verdict; key: string }[] = [
  { verdict: 'relevant', key: '1' },
  { verdict: 'not_relevant', key: '2' },
  { verdict: 'unclear', key: '3' },
];

const reviewApi: ReviewApi = {
  queue: (status, limit, offset = 0) => api<ReviewQueue>(`/v1/admin/review?${new URLSearchParams({ status, limit: String(limit), offset: String(offset) })}`),
  item: (id) => api<ReviewItem>(`/v1/admin/review/${encodeURIComponent(id)}`),
  // Setting an answer is idempotent, so one the server could not take just now is sent again.
  answer: (id, verdict, note, ifVerdict) =>
    retryingTransient(() =>
      api(`/v1/admin/review/${encodeURIComponent(id)}`, { method: 'POST', json: note ? { verdict, note, ifVerdict } : { verdict, ifVerdict } }),
    ),
  traces: async (id) => (await api<{ traces: ReviewItemTrace[] }>(`/v1/admin/review/${encodeURIComponent(id)}/traces`)).traces,
};

/** What the list's end is, taken when it is reached: its status and the items passed over still on it. */
const endOf = (session: ReviewSession) => ({ status: session.status, passed: session.passed });

/** The list's end: empty, or past its last item with items passed over still on it (skipped with j, or the answered list's). */
const endWords = ({ status, passed }: ReturnType<typeof endOf>, s: Strings) => (passed ? format(s.queuePassed, { n: passed }) : s[`queueEmpty_${status}`]);

/** Keys a focused list (the status filter) keeps for itself; the queue's other keys still work there. */
const LIST_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown', ' ', 'Enter', 'Escape']);

/** Whether a key belongs to the field that has focus: the note, the header's lists, or one of the filter's own keys. */
const isTyping = (e: KeyboardEvent, page: Node) => {
  const target = e.composedPath()[0];
  if (target instanceof HTMLSelectElement) return !page.contains(target) || LIST_KEYS.has(e.key);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement;
};

/**
 * The review queue, one item at a time and keyboard first: 1/2/3 answer, j/k (or the arrows)
 * move, u undoes the last answer, n writes a note, ? lists the keys. The next item and its
 * traces are fetched before they are asked for, so an answer shows the next item at once.
 * The address names the filter and the item (`?status=…&item=…`).
 */
export class ReviewPage extends LitElement {
  static override styles = [baseStyles, dialogStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    error: { state: true },
    loadError: { state: true },
    announcement: { state: true },
    loaded: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  declare error: Words | undefined;
  /** Why the queue could not be fetched. */
  declare loadError: unknown;
  /** What a screen reader is told of the last action, in the reader's language of the moment. */
  declare announcement: Words | undefined;
  declare loaded: boolean;

  private session: ReviewSession | undefined;
  /**
   * The reviewer's answers, the answers to take back (`u` takes back the last one given, on
   * whichever list) and the notes typed and not yet saved: across the lists this page opens (a
   * filter changed, back and forward) and the tab's other pages (a trace opened, then Back).
   */
  private readonly work = reviewerWork(adminKey(), reviewApi);
  private readonly ledger = this.work.ledger;
  private readonly history = this.work.history;
  private readonly drafts = this.work.drafts;
  private readonly onKey = (e: KeyboardEvent) => this.handleKey(e);
  /** Stops this page being told of failed answers once it is left. */
  private stopFailures: (() => void) | undefined;

  /** The status line said the next page is loading: once it lands, it says what is shown instead. */
  private saidLoading = false;

  /** Whether the list's end message had focus before this update. */
  private endHadFocus = false;

  constructor() {
    super();
    this.loaded = false;
  }

  override connectedCallback() {
    super.connectedCallback();
    document.addEventListener('keydown', this.onKey);
    this.stopFailures = this.work.failures.listen((words) => (this.error = words));
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    document.removeEventListener('keydown', this.onKey);
    this.stopFailures?.();
  }

  /**
   * As the address has it: one the collector refuses (a hand-edited `?status=bogus`) is said beside
   * the filter, with no list, rather than the waiting list shown under an address naming another.
   * Unchecked here: which statuses there are is the collector's rule.
   */
  private get status(): ReviewStatus {
    return (this.route.query.get('status') || 'pending') as ReviewStatus;
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('route') && this.session?.status !== this.status) this.start();
    this.endHadFocus = (this.renderRoot as ShadowRoot).activeElement?.matches('.empty') ?? false;
  }

  /** The end message had focus and was replaced (an item came back, a page loaded): what replaced it takes it, not the page's body. */
  override updated() {
    if (this.endHadFocus && !(this.renderRoot as ShadowRoot).activeElement) this.focusShown();
  }

  private start() {
    const session = new ReviewSession(
      reviewApi,
      this.status,
      () => {
        // A queue that loads after the reader left the page must not pull the address back to it.
        if (this.session !== session || !this.isConnected) return;
        if (this.saidLoading && !session.fetchingMore) this.announceShown(session);
        this.requestUpdate();
        this.reflectPosition();
      },
      this.ledger,
      this.history,
    );
    this.session = session;
    this.loaded = false;
    // An answer that failed while no review page was shown (a trace opened from the item) is said now.
    this.error = this.work.failures.take();
    this.loadError = undefined;
    const item = this.route.query.get('item') ?? undefined;
    session.load(item).then(
      () => {
        // The list of a status left since (the filter changed) must not stand for the one shown.
        if (this.session !== session) return;
        this.loaded = true;
        // A link to an item that could not be opened says so, rather than pass for a link to the item shown.
        const failed = session.linkFailed;
        const said = this.error;
        if (failed !== undefined) this.error = (s) => [said?.(s), format(s.linkedItemFailed, { message: errorText(failed, s) })].filter(Boolean).join(' ');
        const status = session.startsElsewhere;
        if (status) navigate(paths.review({ status: status === 'pending' ? undefined : status, item }), { replace: true });
      },
      (err) => {
        if (this.session === session) this.loadError = err;
      },
    );
  }

  /** Keeps the address on the item shown, without a history entry per item. */
  private reflectPosition() {
    const id = this.session?.current?.id;
    if (id !== (this.route.query.get('item') ?? undefined))
      navigate(paths.review({ status: this.status === 'pending' ? undefined : this.status, item: id }), { replace: true });
  }

  /** An undo not saved: said here, or on the review page shown when it fails (this one left meanwhile). */
  private undoFailed(err: unknown) {
    this.work.failures.report((s) => (itemGone(err) ? s.itemGone : changedElsewhere(err) ? s.undoneElsewhere : errorText(err, s)));
  }

  /** An answer not saved: said here, or on the review page shown when it fails (this one or the one come back to after a trace). */
  private answerFailed(id: string, err: unknown) {
    // Its item gone (erased, purged), the note typed for it can never be saved: no longer unsaved work.
    if (itemGone(err)) this.drafts.forget(id);
    this.work.failures.report((s) =>
      itemGone(err) ? s.itemGone : changedElsewhere(err) ? s.answeredElsewhere : format(s.saveFailed, { message: errorText(err, s) }),
    );
  }

  private handleKey(e: KeyboardEvent) {
    if (e.defaultPrevented) return;
    // Enter held on a focused answer or Undo button repeats its click: it acts once, as its key does.
    const on = e.composedPath()[0];
    if (e.repeat && (e.key === 'Enter' || e.key === ' ') && on instanceof HTMLButtonElement && on.matches('.verdict, .undo')) {
      e.preventDefault();
      return;
    }
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog?.open) return; // the dialog handles Esc itself
    if (isTyping(e, this.renderRoot)) {
      // Esc leaves the note for the item, where the keys work again; a list keeps its own Esc.
      const target = e.composedPath()[0];
      if (e.key === 'Escape' && target instanceof HTMLTextAreaElement) this.focusShown();
      return;
    }
    const action = actionFor(e);
    if (!action) return;
    e.preventDefault();
    // A held answer or undo key repeats: it acts once, not on the items after it.
    if (e.repeat && (typeof action === 'object' || action === 'undo')) return;
    this.act(action);
  }

  private act(action: ReviewAction) {
    const session = this.session;
    if (!session) return;
    const pressed = (this.renderRoot as ShadowRoot).activeElement as HTMLButtonElement | null;
    this.perform(session, action);
    this.keepFocus(pressed);
  }

  /**
   * An answer or Undo clicked. The first click of a double click puts the next item (or the answer
   * before) under the pointer at once: the clicks after it act on nothing, as a held key does.
   */
  private clicked(e: MouseEvent, action: ReviewAction) {
    if (e.detail <= 1) this.act(action);
  }

  /**
   * The button pressed may leave (the last item's answers) or be disabled (Previous on the first
   * item, Undo with nothing left): the keyboard then goes to what is shown, not to the page's body.
   */
  private keepFocus(pressed: HTMLButtonElement | null) {
    if (!pressed) return;
    // Waits for the update the action asked for.
    void this.updateComplete.then(() => {
      if (!pressed.isConnected || pressed.disabled) this.focusShown();
    });
  }

  /** Focus on the item shown, or on the list's end message. */
  private focusShown() {
    this.renderRoot.querySelector<HTMLElement>('article.item, .empty')?.focus();
  }

  private perform(session: ReviewSession, action: ReviewAction) {
    if (typeof action === 'object') {
      if (!session.current) return;
      // The box holds the item's note until the reviewer changes it: an answer changed keeps it.
      const note = this.noteField()?.value.trim() || null;
      const { id } = session.current;
      // A failure shown before is about an answer given again now (its item came back).
      this.error = undefined;
      session.answer(action.answer, note).then(
        () => this.drafts.saved(id, note),
        (err) => this.answerFailed(id, err),
      );
      const { answer } = action;
      this.announceShown(session, (s) => format(s.announceAnswered, { verdict: s[`verdict_${answer}`] }));
      return;
    }
    switch (action) {
      case 'next':
      case 'previous':
        if (action === 'next') session.next();
        else session.previous();
        // The item changes in place, focus staying where it was: a screen reader is told what is shown now.
        if (this.loaded) this.announceShown(session);
        return;
      case 'undo': {
        if (!session.canUndo) {
          this.announcement = (s) => s.nothingToUndo;
          return;
        }
        this.error = undefined;
        session.undo().catch((err) => this.undoFailed(err));
        this.announceShown(session, (s) => s.announceUndone);
        return;
      }
      case 'note':
        return this.noteField()?.focus();
      case 'help':
        return this.renderRoot.querySelector('dialog')?.showModal();
    }
  }

  /**
   * What is on screen now, for a screen reader: the item moves in place without taking focus, and
   * a live region says nothing when its words do not change (answers in a row with the same key).
   * The item is taken now; the words, in whatever language the page is read in.
   */
  private shownInWords(session: ReviewSession): Words {
    const item = session.current;
    if (!item) {
      // Past the items loaded, as the card says: the next page failed or is on its way, or the list ends.
      const failed = session.refillError;
      if (failed !== undefined) return (s) => errorText(failed, s);
      if (session.fetchingMore) return (s) => s.loading;
      const end = endOf(session);
      return (s) => endWords(end, s);
    }
    const position = { n: session.index + 1, total: session.items.length };
    return (s) => format(s.announceItem, { position: format(s.position, position), query: item.query });
  }

  /** Tells a screen reader what was done (`done`) and what is shown now. */
  private announceShown(session: ReviewSession, done?: Words) {
    const shown = this.shownInWords(session);
    this.announcement = done ? (s) => `${done(s)} ${shown(s)}` : shown;
    this.saidLoading = !session.current && session.fetchingMore;
  }

  /** Keeps what is typed for the item until an answer carrying it is saved. */
  private typed(id: string, text: string) {
    this.drafts.typed(id, text);
    this.requestUpdate();
  }

  private noteField() {
    return this.renderRoot.querySelector<HTMLTextAreaElement>('#note');
  }

  override render() {
    const s = this.strings;
    const session = this.session;
    return html`<h1 tabindex="-1">${s.reviewTitle}</h1>
      ${this.renderProgress()}
      <div class="toolbar">
        ${filterSelect(s, {
          name: 'status',
          label: s.statusFilter,
          value: this.status,
          options: REVIEW_STATUSES,
          words: (st) => s[`status_${st}`],
          loadError: this.loadError,
          choose: (status) => navigate(paths.review({ status })),
        })}
        ${session?.current ? html`<span class="muted" data-field="position">${format(s.position, { n: session.index + 1, total: session.items.length })}</span>` : nothing}
        <span class="spacer"></span>
        <button @click=${() => this.act('previous')} aria-keyshortcuts="k ArrowLeft" ?disabled=${!session || session.index === 0}>${s.previous} <kbd>k</kbd></button>
        <button @click=${() => this.act('next')} aria-keyshortcuts="j ArrowRight" ?disabled=${!session?.current}>${s.next} <kbd>j</kbd></button>
        <button class="undo" @click=${(e: MouseEvent) => this.clicked(e, 'undo')} aria-keyshortcuts="u" ?disabled=${!session?.canUndo}>${s.undo} <kbd>u</kbd></button>
        <button @click=${() => this.act('help')} aria-keyshortcuts="?">${s.keysButton} <kbd>?</kbd></button>
      </div>
      <p class="error" role="alert">${this.loadError ? loadFailed(this.loadError, s, this, () => this.start()) : (this.error?.(s) ?? '')}</p>
      ${this.renderBody()}
      <p class="visually-hidden" role="status" aria-live="polite">${this.announcement?.(s) ?? ''}</p>
      ${this.renderHelp()}`;
  }

  private renderProgress() {
    const s = this.strings;
    const b = this.session?.budget;
    const t = this.session?.training;
    if (!b || !t) return nothing;
    return html`<section class="progress" aria-label=${s.budgetLabel}>
      <label>
        <span>${format(s.budgetProgress, { answered: b.answeredLastWeek, budget: b.itemsPerWeek })}</span>
        <progress max=${b.itemsPerWeek} .value=${Math.min(b.answeredLastWeek, b.itemsPerWeek)}></progress>
      </label>
      <span class="muted">${queueCounts(b, s)}</span>
      <span>${trainingCount(t, s)}${t.ready ? html` · <strong>${s.trainingReady}</strong>` : nothing}</span>
    </section>`;
  }

  private renderBody() {
    const s = this.strings;
    const session = this.session;
    if (!session || !this.loaded) return this.loadError ? nothing : html`<p class="muted">${s.loading}</p>`;
    const item = session.current;
    if (!item) {
      // Past the items loaded, the next page failed or is on its way: the list is not known to be empty.
      if (session.refillError !== undefined)
        return html`<p class="card empty" tabindex="-1">${loadFailed(session.refillError, s, this, () => session.retryRefill())}</p>`;
      if (session.fetchingMore) return html`<p class="card empty" tabindex="-1">${s.loading}</p>`;
      return html`<p class="card empty" tabindex="-1">${endWords(endOf(session), s)}</p>`;
    }
    // The reviewer's draft stays in the field; the note the item holds (another reviewer's, say) is shown under it.
    const savedNote = item.note && this.drafts.differs(item);
    return html`<article class="card item" tabindex="-1" aria-labelledby="item-query" data-item=${item.id}>
      ${renderItem(item, s)}
      <section class="answer" aria-label=${s.reviewQuestion}>
        ${item.status === 'answered' && item.verdict ? html`<p class="answered">${format(s.answeredAs, { verdict: s[`verdict_${item.verdict}`] })}</p>` : nothing}
        <div class="verdicts">
          ${VERDICTS.map(
            ({ verdict, key }) =>
              html`<button class="verdict ${verdict}" aria-keyshortcuts=${key} aria-pressed=${item.verdict === verdict ? 'true' : 'false'} @click=${(e: MouseEvent) => this.clicked(e, { answer: verdict })}>
                ${s[`verdict_${verdict}`]} <kbd>${key}</kbd>
              </button>`,
          )}
        </div>
        <label for="note">${s.note} <kbd>n</kbd></label>
        ${keyed(
          item.id,
          html`<textarea
            id="note"
            rows="2"
            maxlength="2000"
            aria-keyshortcuts="n"
            aria-describedby=${savedNote ? 'saved-note' : nothing}
            .value=${this.drafts.shown(item)}
            @input=${(e: Event) => this.typed(item.id, (e.target as HTMLTextAreaElement).value)}
          ></textarea>`,
        )}
        ${savedNote ? html`<p id="saved-note" class="saved-note"><span class="muted">${s.savedNote}</span> <span class="text" data-field="saved-note">${item.note}</span></p>` : nothing}
      </section>
      ${renderTraces(item, session.tracesOf(item.id), s, this.locale, session.tracesFailedFor(item.id) ? () => session.retryTraces(item.id) : undefined)}
    </article>`;
  }

  private renderHelp() {
    const s = this.strings;
    return html`<dialog aria-labelledby="keys-title">
      <h2 id="keys-title">${s.keysTitle}</h2>
      <table>
        <tbody>
          ${REVIEW_KEYS.map((k) => html`<tr><td>${k.keys.map((key, i) => html`${i ? ' / ' : ''}<kbd>${keyLabel(key)}</kbd>`)}</td><td>${s[k.label]}</td></tr>`)}
        </tbody>
      </table>
      <form method="dialog"><button class="primary">${s.close}</button></form>
    </dialog>`;
  }
}
