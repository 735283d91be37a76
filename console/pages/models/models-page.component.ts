import { html, LitElement, type PropertyDeclarations } from 'lit';
import type { Route } from '../../app/router.ts';
import type { Locale, Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';

/** The models page: until it lists the registry, it says where the registry is (GET /v1/admin/models) and how to roll back. */
export class ModelsPage extends LitElement {
  static override styles = baseStyles;
  static override properties: PropertyDeclarations = { strings: { attribute: false }, locale: {}, route: { attribute: false } };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;

  override render() {
    return html`<h1>${this.strings.modelsTitle}</h1>
      <p class="card" role="status">${this.strings.modelsPending}</p>`;
  }
}
