import { html } from 'lit';
import { highlightSegments } from './highlight.ts';

/** Text with the query's terms in <mark>; every piece is rendered as text, never as HTML. */
export const highlighted = (text: string, query: string) => highlightSegments(text, query).map((s) => (s.hit ? html`<mark>${s.text}</mark>` : s.text));
