import { DeadLettersPage } from './dead-letters-page.component.ts';

export * from './dead-letters-page.component.ts';

customElements.define('rf-dead-letters-page', DeadLettersPage);
