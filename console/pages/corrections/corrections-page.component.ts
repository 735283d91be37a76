import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import { CORRECTION_STATUSES } from '../../../shared/admin-api/documents.ts';
import { ApiRequestError, api } from '../../api/client.ts';
import type { Correction } from '../../api/types.ts';
import { navigate, paths, type Route } from '../../app/router.ts';
import { dateTime, percent } from '../../i18n/locale.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import { filterSelect } from '../../ui/filter-select.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import type { Words } from '../../ui/words.ts';
import { styles } from './corrections-page.styles.ts';

interface OwnerGroup {
  owner: string | null;
  corrections: Correction[];
}

/** The owner filter's value for corrections no owner pattern matches. */
const UNOWNED = '-';

/** The most corrections the inbox lists (the API's default): a list this long says older ones are left out. */
const LIMIT = 200;

/**
 * The corrections inbox per document owner: what users said the answer should have been, the
 * source they named, the answer it corrects (and the later one it was sent under, when the nightly
 * attribution found it was about an earlier one); resolved with a note on what was changed.
 * `/admin/corrections?status=open&owner=…`.
 */
export class CorrectionsPage extends LitElement {
  static override styles = [baseStyles, pageStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    groups: { state: true },
    cut: { state: true },
    error: { state: true },
    loadError: { state: true },
    blankNote: { state: true },
    outcome: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  declare groups: OwnerGroup[] | undefined;
  /** The collector listed as many as asked for: older corrections were left out. */
  declare cut: boolean;
  declare error: Words | undefined;
  /** Why the inbox could not be fetched. */
  declare loadError: unknown;
  /** The correction whose Resolve was pressed with no note written. */
  declare blankNote: string | undefined;
  /** What became of the correction just resolved, said to screen readers since its form left with it. */
  declare outcome: 'correctionResolved' | 'correctionResolvedElsewhere' | 'correctionGone' | undefined;
  private loadedStatus: string | undefined;
  /** Corrections whose resolution is on its way: a second press (a double click) sends nothing more. */
  private readonly resolving = new Set<string>();

  /** As the address has it: one the collector refuses (a hand-edited `?status=closed`) is said beside the filter. */
  private get status(): string {
    return this.route.query.get('status') || 'open';
  }

  private get ownerFilter(): string | null {
    return this.route.query.get('owner');
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('route') && this.status !== this.loadedStatus) void this.load();
  }

  /** The inbox fetched; `again` keeps what is shown (and said) until the new list is in. */
  private async load(again = false) {
    const status = this.status;
    this.loadedStatus = status;
    if (!again) {
      this.groups = undefined;
      this.error = undefined;
      this.loadError = undefined;
      this.outcome = undefined;
    }
    try {
      const { owners } = await api<{ owners: OwnerGroup[] }>(`/v1/admin/corrections?${new URLSearchParams({ status, limit: String(LIMIT) })}`);
      if (this.loadedStatus !== status) return;
      this.groups = owners;
      this.cut = owners.reduce((n, g) => n + g.corrections.length, 0) >= LIMIT;
    } catch (err) {
      if (this.loadedStatus === status) this.loadError = err;
    }
  }

  private filter(change: { status?: string; owner?: string }) {
    const next = { status: this.status === 'open' ? undefined : this.status, owner: this.ownerFilter ?? undefined, ...change };
    navigate(paths.corrections({ status: next.status === 'open' ? undefined : next.status, owner: next.owner || undefined }));
  }

  override render() {
    const s = this.strings;
    const owners = this.groups?.map((g) => g.owner ?? UNOWNED) ?? [];
    const filter = this.ownerFilter;
    if (filter && !owners.includes(filter)) owners.push(filter);
    return html`<h1 tabindex="-1">${s.correctionsTitle}</h1>
      <p class="intro">${s.correctionsIntro}</p>
      <div class="filters">
        ${filterSelect(s, {
          name: 'status',
          label: s.statusFilter,
          value: this.status,
          options: CORRECTION_STATUSES,
          words: (st) => s[`correctionStatus_${st}`],
          loadError: this.loadError,
          choose: (status) => this.filter({ status }),
        })}
        <label
          >${s.owner}
          <select .value=${live(filter ?? '')} @change=${(e: Event) => this.filter({ owner: (e.target as HTMLSelectElement).value })}>
            <option value="" ?selected=${!filter}>${s.allOwners}</option>
            ${owners.map((o) => html`<option value=${o} ?selected=${o === filter}>${o === UNOWNED ? s.unowned : o}</option>`)}
          </select>
        </label>
      </div>
      <p class="error" role="alert">${this.loadError ? loadFailed(this.loadError, s, this, () => void this.load()) : (this.error?.(s) ?? '')}</p>
      <p class="muted outcome" role="status">${this.outcome ? s[this.outcome] : ''}</p>
      ${this.renderGroups()}`;
  }

  private renderGroups() {
    const s = this.strings;
    if (!this.groups) return this.loadError ? nothing : html`<p class="muted">${s.loading}</p>`;
    const filter = this.ownerFilter;
    const shown = this.groups.filter((g) => g.corrections.length && (!filter || (g.owner ?? UNOWNED) === filter));
    const cut = this.cut ? html`<p class="muted" data-field="cut">${format(s.correctionsCut, { n: LIMIT })}</p>` : nothing;
    if (!shown.length) return html`${cut}<p class="card empty" tabindex="-1">${s.noCorrections}</p>`;
    // Keyed: a resolved correction's form leaves with it, rather than passing its typed note on to the next one.
    return html`${cut}${repeat(
      shown,
      (g) => g.owner ?? UNOWNED,
      (g, gi) => html`<section class="card" aria-labelledby="owner-${gi}">
        <h2 id="owner-${gi}">${g.owner ?? s.unowned} <span class="muted">(${g.corrections.length})</span></h2>
        ${repeat(
          g.corrections,
          (c) => c.eventId,
          (c) => this.renderCorrection(c),
        )}
      </section>`,
    )}`;
  }

  private renderCorrection(c: Correction) {
    const s = this.strings;
    return html`<article class="correction" data-event=${c.eventId} aria-label=${c.query}>
      <dl>
        <div><dt>${s.query}</dt><dd class="text" data-field="query">${c.query}</dd></div>
        <div><dt>${s.correction}</dt><dd class="text" data-field="text">${c.text}</dd></div>
        ${c.source ? html`<div><dt>${s.source}</dt><dd class="text" data-field="source">${c.source}</dd></div>` : nothing}
        <div><dt>${s.document}</dt><dd class="mono">${c.sourceDocId ?? s.notSet}</dd></div>
        <div><dt>${s.confidence}</dt><dd>${percent(c.confidence)}</dd></div>
        <div><dt>${s.createdAt}</dt><dd>${dateTime(c.createdAt, this.locale)}</dd></div>
        <div><dt>${s.traceId}</dt><dd><a class="mono" href=${paths.trace(c.traceId)}>${c.traceId}</a></dd></div>
        ${
          // Typed under a later answer than the one it is about (shown above): where it was sent.
          c.sentUnder
            ? html`<div>
                <dt>${s.sentUnder}</dt>
                <dd>
                  <div class="text" data-field="sent-under">${c.sentUnder.query}</div>
                  <a class="mono" href=${paths.trace(c.sentUnder.traceId)}>${c.sentUnder.traceId}</a>
                </dd>
              </div>`
            : nothing
        }
      </dl>
      ${
        c.status === 'resolved'
          ? html`<p class="resolved text">${format(s.resolvedNote, { note: c.note ?? '' })}</p>`
          : html`<form class="resolve" novalidate @submit=${(e: SubmitEvent) => this.resolve(e, c)}>
            <label for="note-${c.eventId}">${s.resolveNote}</label>
            <input
              id="note-${c.eventId}"
              name="note"
              required
              maxlength="2000"
              aria-invalid=${this.blankNote === c.eventId ? 'true' : 'false'}
              aria-describedby="note-${c.eventId}-error"
              @input=${() => (this.blankNote = undefined)}
            />
            <button type="submit" class="primary">${s.resolve}</button>
            <span id="note-${c.eventId}-error" class="error">${this.blankNote === c.eventId ? s.resolveNoteMissing : ''}</span>
          </form>`
      }
    </article>`;
  }

  private async resolve(e: SubmitEvent, c: Correction) {
    e.preventDefault();
    const note = String(new FormData(e.target as HTMLFormElement).get('note') ?? '').trim();
    if (!note) {
      this.blankNote = c.eventId;
      (e.target as HTMLFormElement).querySelector('input')?.focus();
      return;
    }
    if (this.resolving.has(c.eventId)) return;
    this.blankNote = undefined;
    this.error = undefined;
    this.outcome = undefined;
    this.resolving.add(c.eventId);
    try {
      await api(`/v1/admin/corrections/${encodeURIComponent(c.eventId)}/resolve`, { method: 'POST', json: { note } });
      this.outcome = 'correctionResolved';
    } catch (err) {
      // Resolved by someone else meanwhile, or erased with its user's data: it has left the open inbox all the same.
      const code = err instanceof ApiRequestError ? err.code : undefined;
      if (code === 'correction_rerouted') return this.rerouted(c.eventId, note);
      if (code !== 'correction_resolved' && code !== 'correction_not_found') {
        this.error = (s) => errorText(err, s);
        return;
      }
      this.outcome = code === 'correction_resolved' ? 'correctionResolvedElsewhere' : 'correctionGone';
    } finally {
      this.resolving.delete(c.eventId);
    }
    const next = this.neighbourOf(c.eventId);
    // Resolved: it leaves the open inbox.
    this.groups = this.groups?.map((g) => ({ ...g, corrections: g.corrections.filter((x) => x.eventId !== c.eventId) }));
    await this.updateComplete;
    // Its form left with it: the keyboard goes on to the next correction's note, or to the inbox's empty message.
    this.renderRoot.querySelector<HTMLElement>(next ? `#${CSS.escape(`note-${next}`)}` : '.empty')?.focus();
  }

  /**
   * Moved to another document (and maybe owner) while being resolved, and still open: the inbox is
   * fetched again to show it under its owner now, its note typed and focused for Resolve again.
   */
  private async rerouted(eventId: string, note: string) {
    this.error = (s) => s.correctionRerouted;
    await this.load(true);
    await this.updateComplete;
    const input = this.renderRoot.querySelector<HTMLInputElement>(`#${CSS.escape(`note-${eventId}`)}`);
    if (!input) return;
    input.value = note;
    input.focus();
  }

  /** The correction shown after this one, else the one before: where the reader goes on from. */
  private neighbourOf(eventId: string): string | undefined {
    const shown = [...this.renderRoot.querySelectorAll<HTMLElement>('article.correction')].map((a) => a.dataset.event);
    const i = shown.indexOf(eventId);
    return shown[i + 1] ?? shown[i - 1];
  }
}
