import { html, LitElement, type PropertyDeclarations } from 'lit';
import type { Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';

/**
 * What the console shows when the API answered 401 mid-session: the key was revoked or is
 * unknown. It says so plainly and offers to sign in again.
 *
 * @event rf-sign-in-again - The reader chose to sign in again.
 */
export class UnauthorizedPage extends LitElement {
  static override styles = baseStyles;
  static override properties: PropertyDeclarations = { strings: { attribute: false } };

  declare strings: Strings;

  override render() {
    const s = this.strings;
    return html`<section class="card" role="alert" aria-labelledby="title">
      <h1 id="title">${s.unauthorizedTitle}</h1>
      <p>${s.unauthorizedBody}</p>
      <button class="primary" @click=${() => this.dispatchEvent(new Event('rf-sign-in-again', { bubbles: true, composed: true }))}>${s.signInAgain}</button>
    </section>`;
  }

  override firstUpdated() {
    this.renderRoot.querySelector('button')?.focus();
  }
}
