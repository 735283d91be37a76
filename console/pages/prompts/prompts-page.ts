import { PromptsPage } from './prompts-page.component.ts';

export * from './prompts-page.component.ts';

customElements.define('rf-prompts-page', PromptsPage);
