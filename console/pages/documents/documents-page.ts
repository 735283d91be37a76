import { DocumentsPage } from './documents-page.component.ts';

export * from './documents-page.component.ts';

customElements.define('rf-documents-page', DocumentsPage);
