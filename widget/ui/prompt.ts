import { html } from 'lit';
import type { Prompt } from '../../shared/schema/config.ts';
import type { RagFeedbackElement } from '../rag-feedback.component.ts';
import { localized, type Strings } from '../strings.ts';

/** A contextual prompt: its question, its answers, and a way to dismiss it. */
export function renderPrompt(el: RagFeedbackElement, prompt: Prompt, locale: string, s: Strings) {
  const id = `prompt-${prompt.id}`;
  return html`<div class="prompt" part="prompt" role="group" aria-labelledby=${id}>
    <p id=${id}>${localized(prompt.text, locale)}</p>
    <div class="options">
      ${prompt.choices.map((c) => html`<button part="button" @click=${() => el.answerPrompt(c.id)}>${localized(c.label, locale)}</button>`)}
      <button part="button" class="link" @click=${() => el.answerPrompt('dismissed')}>${s.dismiss}</button>
    </div>
  </div>`;
}
