import { html } from 'lit';
import type { Prompt } from '../../shared/schema/config.ts';
import { PROMPT_DISMISSED } from '../../shared/schema/config-defaults.ts';
import { localized } from '../localized.ts';
import type { PopoverStrings } from '../strings.ts';
import type { FeedbackActions } from './host.ts';

/** A contextual prompt: its question, its answers, and a way to dismiss it. */
export function renderPrompt(feedback: FeedbackActions, prompt: Prompt, locale: string, s: PopoverStrings) {
  const id = `prompt-${prompt.id}`;
  return html`<div class="prompt" part="prompt" role="group" aria-labelledby=${id}>
    <p id=${id}>${localized(prompt.text, locale)}</p>
    <div class="options">
      ${prompt.choices.map((c) => html`<button part="button" @click=${() => feedback.answerPrompt(c.id)}>${localized(c.label, locale)}</button>`)}
      <button part="button" class="link" @click=${() => feedback.answerPrompt(PROMPT_DISMISSED)}>${s.dismiss}</button>
    </div>
  </div>`;
}
