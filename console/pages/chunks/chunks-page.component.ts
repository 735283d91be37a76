import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { CHUNK_SORTS, CHUNKS_MAX_MIN_SHOWN, CHUNKS_MIN_SHOWN } from '../../../shared/admin-api/chunks.ts';
import type { ChunkUsage } from '../../api/types.ts';
import { navigate, paths, type Route } from '../../app/router.ts';
import { percent } from '../../i18n/locale.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { AddressList } from '../../ui/address-list.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import { refusedFilter } from '../../ui/refusal.ts';

/** The filters GET /v1/admin/chunks takes that the address carries. */
const FILTERS = ['sort', 'minShown'] as const;

/**
 * Citation click-through per chunk (the seed's implicit signal): chunks shown often among an
 * answer's first citations, least clicked first, or most flagged as the wrong source.
 * `/admin/chunks?sort=…&minShown=…`: the filters are the address.
 */
export class ChunksPage extends LitElement {
  static override styles = [baseStyles, pageStyles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  private readonly list = new AddressList<ChunkUsage>(this, '/v1/admin/chunks', FILTERS, (body: { chunks: ChunkUsage[] }) => body.chunks);

  private get sort(): string {
    return this.route.query.get('sort') ?? CHUNK_SORTS[0];
  }

  /**
   * Another address (back, forward) shows its own order and minimum, even over ones chosen and
   * never applied; an option's selected attribute no longer moves a list the reader has used.
   */
  override updated(changed: PropertyValues<this>) {
    if (!changed.has('route')) return;
    const select = this.renderRoot.querySelector<HTMLSelectElement>('select[name="sort"]');
    if (select) select.value = this.sort;
    const input = this.renderRoot.querySelector<HTMLInputElement>('input[name="minShown"]');
    if (input) input.value = this.route.query.get('minShown') ?? '';
  }

  override render() {
    const s = this.strings;
    const sort = this.sort;
    return html`<h1 tabindex="-1">${s.chunkUseTitle}</h1>
      <p class="intro">${s.chunkUseIntro}</p>
      <form class="filters" aria-label=${s.filters} @submit=${this.apply}>
        <label
          >${s.chunkSort}
          <select name="sort" aria-invalid=${this.refused('sort') ? 'true' : 'false'} aria-describedby="filter-sort-error">
            ${CHUNK_SORTS.map((value) => html`<option value=${value} ?selected=${value === sort}>${s[`chunkSort_${value}`]}</option>`)}
          </select>
          <span id="filter-sort-error" class="error">${this.refused('sort') ?? ''}</span></label
        >
        <label
          >${s.minShown}
          <input
            name="minShown"
            type="number"
            min="1"
            max=${CHUNKS_MAX_MIN_SHOWN}
            step="1"
            placeholder=${CHUNKS_MIN_SHOWN}
            aria-invalid=${this.refused('minShown') ? 'true' : 'false'}
            aria-describedby="filter-minShown-error"
            .value=${this.route.query.get('minShown') ?? ''}
          /><span id="filter-minShown-error" class="error">${this.refused('minShown') ?? ''}</span></label
        >
        <button type="submit" class="primary">${s.apply}</button>
      </form>
      <p class="error" role="alert">${this.list.error ? loadFailed(this.list.error, s, this, () => this.list.load()) : ''}</p>
      ${this.renderTable()}`;
  }

  /** What the collector said of this filter's value in the address, when it refused it among those at fault (a hand-edited `?minShown=0`). */
  private refused(name: (typeof FILTERS)[number]): string | undefined {
    return refusedFilter(this.list.error, name)?.(this.strings);
  }

  private renderTable() {
    const s = this.strings;
    if (!this.list.items) return this.list.error ? nothing : html`<p class="muted">${s.loading}</p>`;
    if (!this.list.items.length) {
      return html`<p class="card" data-field="no-chunks">${format(s.noChunkUse, { n: this.route.query.get('minShown') || CHUNKS_MIN_SHOWN })}</p>`;
    }
    return html`<div class="scroll">
      <table class="chunks">
        <thead>
          <tr>
            <th scope="col">${s.chunk}</th><th scope="col">${s.owner}</th><th scope="col">${s.timesShown}</th><th scope="col">${s.timesRetrieved}</th>
            <th scope="col">${s.citationClicks}</th><th scope="col">${s.clickThrough}</th><th scope="col">${s.focusedReads}</th>
            <th scope="col">${s.sourceCopies}</th><th scope="col">${s.wrongSourceFlags}</th>
          </tr>
        </thead>
        <tbody>
          ${this.list.items.map(
            (c) => html`<tr data-chunk=${c.chunkId}>
              <td><span class="mono">${c.chunkId}</span><br /><span class="muted mono">${c.sourceDocId}</span></td>
              <td>${c.owner ?? html`<span class="muted">${s.noOwner}</span>`}</td>
              <td>${c.shown}</td>
              <td>${c.retrieved}</td>
              <td>${c.clicks}</td>
              <td>${percent(c.ctr)}</td>
              <td>${c.focusedDwells}</td>
              <td>${c.copies}</td>
              <td>${c.wrongSourceFlags}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  private apply(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const sort = String(data.get('sort') ?? '');
    const minShown = String(data.get('minShown') ?? '').trim();
    // The default order stays out of the address, as an empty filter does.
    navigate(paths.chunks({ sort: sort === CHUNK_SORTS[0] ? undefined : sort, minShown }));
  }
}
