import { UnauthorizedPage } from './unauthorized-page.component.ts';

export * from './unauthorized-page.component.ts';

customElements.define('rf-unauthorized-page', UnauthorizedPage);
