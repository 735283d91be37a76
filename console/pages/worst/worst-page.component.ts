import { css, html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { WorstTrace } from '../../api/types.ts';
import { navigate, paths, type Route } from '../../app/router.ts';
import { dateTime, percent } from '../../i18n/locale.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { AddressList } from '../../ui/address-list.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import { refusedFilter } from '../../ui/refusal.ts';
import { FILTERS, type Filter, filterIssue } from './worst-filters.ts';

/**
 * The seed's most useful list: queries handled badly, worst first, with their chunks; each links
 * to its trace view. `/admin/traces?days=…&below=…`: the filters are the address.
 */
export class WorstPage extends LitElement {
  static override styles = [
    baseStyles,
    pageStyles,
    // Ids keep their line (base styles): the question keeps room to be read beside a long one, the table scrolling instead.
    css`
      td.question {
        min-width: 16em;
      }
    `,
  ];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  private readonly list = new AddressList<WorstTrace>(
    this,
    '/v1/admin/worst-traces',
    FILTERS.map((f) => f.name),
    (body: { traces: WorstTrace[] }) => body.traces,
  );

  /**
   * Another address (back, forward, a link) shows its own filters, even in a field typed in and
   * never applied, which the binding alone leaves as typed when the address's value is unchanged;
   * a re-render for the list arriving leaves what is being typed alone.
   */
  override updated(changed: PropertyValues<this>) {
    if (!changed.has('route')) return;
    for (const input of this.renderRoot.querySelectorAll<HTMLInputElement>('form.filters input[name]')) {
      if (input.name !== 'traceId') input.value = this.route.query.get(input.name) ?? '';
    }
  }

  override render() {
    const s = this.strings;
    return html`<h1 tabindex="-1">${s.worstTitle}</h1>
      <p class="intro">${s.worstIntro}</p>
      <form class="filters" aria-label=${s.filters} @submit=${this.apply}>
        ${FILTERS.map((f) => {
          const refused = this.refused(f);
          return html`<label
            >${s[f.name]}
            <input
              name=${f.name}
              aria-invalid=${refused ? 'true' : 'false'}
              aria-describedby="filter-${f.name}-error"
              type=${f.type}
              min=${'min' in f ? f.min : nothing}
              max=${'max' in f ? f.max : nothing}
              step=${'step' in f ? f.step : nothing}
              placeholder=${'placeholder' in f ? f.placeholder : s.any}
              .value=${this.route.query.get(f.name) ?? ''}
            /><span id="filter-${f.name}-error" class="error">${refused ?? ''}</span></label
          >`;
        })}
        <button type="submit" class="primary">${s.apply}</button>
      </form>
      <form class="filters" role="search" aria-label=${s.traceLookup} @submit=${this.lookup}>
        <label>${s.traceId} <input name="traceId" spellcheck="false" autocomplete="off" required /></label>
        <button type="submit">${s.open}</button>
      </form>
      <p class="error" role="alert">${this.list.error ? loadFailed(this.list.error, s, this, () => this.list.load()) : ''}</p>
      ${this.renderTable()}`;
  }

  /** Why the collector refused this filter's value in the address, when it named it among those at fault (a 400 for `?days=0`). */
  private refused(f: Filter): string | undefined {
    if (!refusedFilter(this.list.error, f.name)) return undefined;
    return filterIssue(f, this.route.query.get(f.name) ?? '', this.strings);
  }

  private renderTable() {
    const s = this.strings;
    if (!this.list.items) return this.list.error ? nothing : html`<p class="muted">${s.loading}</p>`;
    if (!this.list.items.length) return html`<p class="card">${s.noWorst}</p>`;
    const num = (x: number | null) => (x === null ? s.notSet : x.toFixed(2));
    return html`<div class="scroll">
      <table class="worst">
        <thead>
          <tr>
            <th scope="col">${s.traceId}</th><th scope="col">${s.query}</th><th scope="col">${s.createdAt}</th><th scope="col">${s.weightedScore}</th>
            <th scope="col">${s.score}</th><th scope="col">${s.confidence}</th><th scope="col">${s.signalsCount}</th>
            <th scope="col">${s.knowledgeBase} · ${s.intent} · ${s.model}</th><th scope="col">${s.chunks}</th>
          </tr>
        </thead>
        <tbody>
          ${this.list.items.map(
            (t) => html`<tr data-trace=${t.traceId}>
              <td><a class="mono" href=${paths.trace(t.traceId)}>${t.traceId}</a></td>
              <td class="text question">${t.query}</td>
              <td>${dateTime(t.createdAt, this.locale)}</td>
              <td>${num(t.weightedScore)}</td>
              <td>${num(t.score)}</td>
              <td>${t.confidence === null ? s.notSet : percent(t.confidence)}</td>
              <td>${format(s.signalsBreakdown, { trusted: t.trustedSignals, all: t.signals, explicit: t.explicitSignals, implicit: t.implicitSignals })}</td>
              <td class="text">${[t.knowledgeBase, t.intent, t.model].map((x) => x ?? s.notSet).join(' · ')}</td>
              <td class="mono">${t.chunkIds.join(', ')}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  private apply(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const query: Record<string, string> = {};
    for (const f of FILTERS) {
      const v = String(data.get(f.name) ?? '').trim();
      if (v) query[f.name] = v;
    }
    navigate(paths.worst(query));
  }

  private lookup(e: SubmitEvent) {
    e.preventDefault();
    const id = String(new FormData(e.target as HTMLFormElement).get('traceId') ?? '').trim();
    if (id) navigate(paths.trace(id));
  }
}
