import { ReviewPage } from './review-page.component.ts';

export * from './review-page.component.ts';

customElements.define('rf-review-page', ReviewPage);
