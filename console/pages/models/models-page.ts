import { ModelsPage } from './models-page.component.ts';

export * from './models-page.component.ts';

customElements.define('rf-models-page', ModelsPage);
