import { TracePage } from './trace-page.component.ts';

export * from './trace-page.component.ts';

customElements.define('rf-trace-page', TracePage);
