import { CorrectionsPage } from './corrections-page.component.ts';

export * from './corrections-page.component.ts';

customElements.define('rf-corrections-page', CorrectionsPage);
