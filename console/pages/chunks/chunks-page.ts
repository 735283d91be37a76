import { ChunksPage } from './chunks-page.component.ts';

export * from './chunks-page.component.ts';

customElements.define('rf-chunks-page', ChunksPage);
