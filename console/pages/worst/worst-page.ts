import { WorstPage } from './worst-page.component.ts';

export * from './worst-page.component.ts';

customElements.define('rf-worst-page', WorstPage);
