import { RagFeedbackElement } from './rag-feedback.component.ts';

export * from './rag-feedback.component.ts';

// The one definition of the tag; a second copy of the widget on the page leaves the first in place, and hands out its API (index.ts).
if (!customElements.get('rag-feedback')) customElements.define('rag-feedback', RagFeedbackElement);
