import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import type { Strings } from '../i18n/strings.ts';
import { refusedFilter } from './refusal.ts';

/**
 * A list's filter kept in the address (`?status=`, `?days=`), showing its value as the address has
 * it: one the collector refused (a hand-edited `?status=bogus`, which fetching the list failed on,
 * `loadError`) is marked invalid and what it said is said beside it. Which values there are is the
 * collector's rule, not checked here.
 */
export function filterSelect<V extends string>(
  s: Strings,
  {
    name,
    label,
    value,
    options,
    words,
    loadError,
    choose,
  }: { name: string; label: string; value: string; options: readonly V[]; words: (option: V) => string; loadError: unknown; choose: (value: string) => void },
) {
  const refused = refusedFilter(loadError, name)?.(s);
  const errorId = `filter-${name}-error`;
  return html`<label
    >${label}
    <select
      .value=${live(value)}
      aria-invalid=${refused ? 'true' : 'false'}
      aria-describedby=${errorId}
      @change=${(e: Event) => choose((e.target as HTMLSelectElement).value)}
    >
      ${options.map((option) => html`<option value=${option} ?selected=${option === value}>${words(option)}</option>`)}
    </select>
    <span id=${errorId} class="error">${refused ?? ''}</span>
  </label>`;
}
