import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { ApiRequestError, api } from '../../api/client.ts';
import type { TraceView } from '../../api/types.ts';
import { navigate, paths, type Route } from '../../app/router.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { styles } from './trace-page.styles.ts';
import { renderAnswer, renderChunks, renderDiagnosis, renderQuery, renderSession, renderSignals } from './trace-sections.ts';

/**
 * The root-cause view of one answer (seed 002, 3.5): query and rewrite, retrieval parameters,
 * chunks before and after reranking, the answer and its citations, every signal in time order
 * with its confidence and noise rules, multi-turn attribution, the session around it, and a
 * preliminary diagnosis in words. `/admin/traces/<traceId>`.
 */
export class TracePage extends LitElement {
  static override styles = [baseStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    view: { state: true },
    error: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  declare view: TraceView | undefined;
  /** Why the trace could not be fetched. */
  declare error: unknown;
  private loadedId: string | undefined;

  private get traceId(): string | undefined {
    return this.route.params.traceId;
  }

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('route') && this.traceId !== this.loadedId) this.load();
  }

  private async load() {
    const id = this.traceId;
    this.loadedId = id;
    this.view = undefined;
    this.error = undefined;
    if (!id) return;
    try {
      const view = await api<TraceView>(`/v1/admin/traces/${encodeURIComponent(id)}`);
      if (this.loadedId === id) this.view = view;
    } catch (err) {
      if (this.loadedId === id) this.error = err;
    }
  }

  override render() {
    const s = this.strings;
    const id = this.traceId;
    return html`<form class="lookup" role="search" @submit=${this.lookup}>
        <label for="trace-id">${s.traceId}</label>
        <input id="trace-id" name="traceId" .value=${id ?? ''} spellcheck="false" autocomplete="off" required />
        <button type="submit">${s.open}</button>
      </form>
      <h1 tabindex="-1">${format(s.traceTitle, { id: id ?? '' })}</h1>
      <p class="error" role="alert">${this.renderError(id)}</p>
      ${id && !this.view && !this.error ? html`<p class="muted">${s.loading}</p>` : nothing} ${this.view && id ? this.renderView(this.view, id) : nothing}`;
  }

  private renderError(id: string | undefined) {
    const err = this.error;
    if (!err || !id) return '';
    if (err instanceof ApiRequestError && err.status === 404) return format(this.strings.traceNotFound, { id });
    return loadFailed(err, this.strings, this, () => this.load());
  }

  private renderView(view: TraceView, id: string) {
    const s = this.strings;
    const t = view.trace;
    const score = view.stats ? html`<p>${format(s.traceScore, { score: fmt(view.stats.score), weighted: fmt(view.stats.weightedScore) })}</p>` : nothing;
    if (!t) return html`<p class="card">${s.traceOnlyFeedback}</p>${renderSignals(view, id, s, this.locale)}`;
    return html`${score} ${renderDiagnosis(view, s, this.locale)}
      <div class="columns">${renderQuery(t, s, this.locale)} ${renderAnswer(view, t, s)}</div>
      ${renderChunks(view, t.query, s)} ${renderSignals(view, id, s, this.locale)} ${renderSession(view, id, s, this.locale)}`;
  }

  private lookup(e: SubmitEvent) {
    e.preventDefault();
    const id = (this.renderRoot.querySelector('#trace-id') as HTMLInputElement).value.trim();
    if (id) navigate(paths.trace(id));
  }
}

const fmt = (x: number | null) => (x === null ? '—' : x.toFixed(2));
