import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Strings } from '../i18n/strings.ts';
import { refusedFilter } from './refusal.ts';

/**
 * A list's status filter, showing the status as the address has it: one the collector refused (a
 * hand-edited `?status=bogus`, which fetching the list failed on, `loadError`) is marked invalid
 * and what it said is said beside it. Which statuses there are is the collector's rule, not checked here.
 */
export function statusFilter<S extends string>(
  s: Strings,
  {
    status,
    statuses,
    words,
    loadError,
    choose,
  }: { status: string; statuses: readonly S[]; words: (status: S) => string; loadError: unknown; choose: (status: string) => void },
) {
  const refused = refusedFilter(loadError, 'status')?.(s);
  return html`<label
    >${s.statusFilter}
    <select
      .value=${live(status)}
      aria-invalid=${refused ? 'true' : 'false'}
      aria-describedby="filter-status-error"
      @change=${(e: Event) => choose((e.target as HTMLSelectElement).value)}
    >
      ${statuses.map((st) => html`<option value=${st} ?selected=${st === status}>${words(st)}</option>`)}
    </select>
    <span id="filter-status-error" class="error">${refused ?? ''}</span>
  </label>`;
}
