import { html, type LitElement, nothing } from 'lit';
import { ApiRequestError, NetworkError } from '../api/client.ts';
import type { Strings } from '../i18n/strings.ts';
import { errorText } from './error-text.ts';

/** Whether asking again may help: no answer at all, too many requests just now, or the collector's own failure rather than a refusal of the request. */
export const mayRetry = (err: unknown): boolean => err instanceof NetworkError || (err instanceof ApiRequestError && (err.status === 429 || err.status >= 500));

/**
 * What a page could not fetch, worded in the console's language when shown, with a button to ask
 * again when that may help. The button leaves with the message, so it puts focus on the page's
 * heading (tabindex -1) first: the keyboard stays on the page while it loads.
 */
export function loadFailed(err: unknown, s: Strings, page: LitElement, retry: () => void) {
  const again = async () => {
    retry();
    await page.updateComplete;
    page.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  };
  return html`${errorText(err, s)}${mayRetry(err) ? html` <button type="button" class="retry" @click=${again}>${s.retry}</button>` : nothing}`;
}
