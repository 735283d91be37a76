import { html, LitElement, type PropertyDeclarations } from 'lit';
import { isHeaderSafeKey } from '../../../shared/header-key.ts';
import { ApiRequestError, api } from '../../api/client.ts';
import { rememberAdminKey } from '../../app/admin-key.ts';
import type { Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import type { Words } from '../../ui/words.ts';
import { styles } from './sign-in-page.styles.ts';

/**
 * Asks for the admin key and checks it against the API before keeping it for this tab.
 *
 * @event rf-signed-in - The key was accepted and stored.
 */
export class SignInPage extends LitElement {
  static override styles = [baseStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    notice: {},
    error: { state: true },
    busy: { state: true },
    refused: { state: true },
  };

  declare strings: Strings;
  /** A line shown above the form, e.g. "You are signed out." */
  declare notice: string | undefined;
  declare error: Words | undefined;
  /** While the key is checked; the button is marked aria-disabled, not disabled, which would drop the keyboard to the page's body. */
  declare busy: boolean;
  /** The collector refused the key typed (401, 403): the field says so until it is typed again. */
  declare refused: boolean;

  constructor() {
    super();
    this.busy = false;
    this.refused = false;
  }

  override render() {
    const s = this.strings;
    return html`<section class="card" aria-labelledby="title">
      <h1 id="title">${s.signInTitle}</h1>
      ${this.notice ? html`<p role="status">${this.notice}</p>` : null}
      <p class="muted">${s.signInIntro}</p>
      <p class="muted">${s.signInWhere}</p>
      <form @submit=${this.submit}>
        <label for="key">${s.adminKey}</label>
        <input id="key" name="key" type="password" autocomplete="off" spellcheck="false" required aria-describedby="error" aria-invalid=${this.refused ? 'true' : 'false'} @input=${() => (this.refused = false)} />
        <button class="primary" type="submit" aria-disabled=${this.busy ? 'true' : 'false'}>${this.busy ? s.signingIn : s.signIn}</button>
        <p id="error" class="error" role="alert">${this.error?.(s) ?? ''}</p>
      </form>
    </section>`;
  }

  override firstUpdated() {
    this.renderRoot.querySelector('input')?.focus();
  }

  private async submit(e: SubmitEvent) {
    e.preventDefault();
    const input = this.renderRoot.querySelector('input')!;
    const key = input.value.trim();
    // One check at a time: a second press while the first is on its way changes nothing.
    if (!key || this.busy) return;
    // Keys are printable ASCII: a header cannot carry another character (the README's `rfa_…` with its
    // ellipsis, curly quotes from a document), and fetch would fail as though the collector were down.
    if (!isHeaderSafeKey(key)) {
      this.refused = true;
      this.error = (s) => s.keyNotAKey;
      input.focus();
      input.select();
      return;
    }
    this.busy = true;
    this.error = undefined;
    try {
      await api('/v1/admin/settings', { key });
      rememberAdminKey(key);
      input.value = '';
      this.dispatchEvent(new Event('rf-signed-in', { bubbles: true, composed: true }));
    } catch (err) {
      const status = err instanceof ApiRequestError ? err.status : undefined;
      this.refused = status === 401 || status === 403;
      this.error = (s) => (status === 401 ? s.keyRejected : status === 403 ? s.keyWrongKind : errorText(err, s));
      // Back on the key, to type it again.
      input.focus();
      input.select();
    } finally {
      this.busy = false;
    }
  }
}
