import { html } from 'lit';
import { TYPED_TEXT } from '../../shared/schema/typed-text.ts';
import { CITATION_LABEL_CHARS } from '../defaults.ts';
import type { PopoverStrings } from '../strings.ts';
import { type FeedbackActions, type Panel, REASONS } from './host.ts';

/** Each reason's label, in the order of REASONS. */
const reasonLabels = (s: PopoverStrings) => [s.notAnswered, s.incomplete, s.looksWrong, s.wrongSource, s.other];

/** A label of at most CITATION_LABEL_CHARS characters, cut ones saying so: code points, so never half of one (an emoji's surrogate pair). */
export function shorten(label: string): string {
  const chars = [...label];
  return chars.length > CITATION_LABEL_CHARS ? `${chars.slice(0, CITATION_LABEL_CHARS - 1).join('')}…` : label;
}

/** The number a citation shows the reader (`[2]`, `[2] Shipping guide`), or none: after every numbered one. */
const citationNumber = (label: string) => +(/^\[(\d+)]/.exec(label)?.[1] ?? 1e9);

/** The value of a field of the popover that `e` happened in. */
const value = (e: Event, selector: string) =>
  ((e.target as Node).getRootNode() as ParentNode).querySelector<HTMLTextAreaElement | HTMLInputElement>(selector)?.value ?? '';

/** The attribution popover, the wrong-source list and the correction form. Escape closes it. */
export function renderPanel(feedback: FeedbackActions, s: PopoverStrings, panel: Panel) {
  const onKeydown = (e: KeyboardEvent) => {
    // Escape while an input method composes (Chinese, Japanese) cancels the composition, not the form
    // (Safari says so with keyCode 229 alone).
    if (e.key === 'Escape' && !e.isComposing && e.keyCode !== 229) {
      // Handled here: neither the page's handlers nor the browser's close request (which closes a modal
      // <dialog> the answer sits in) take it too.
      e.stopPropagation();
      e.preventDefault();
      feedback.closePanel();
    }
  };
  return html`<div class="panel" part="panel" role="dialog" aria-labelledby="rf-panel-title" @keydown=${onKeydown}>
    ${body(feedback, s, panel)}
  </div>`;
}

function body(feedback: FeedbackActions, s: PopoverStrings, panel: Panel) {
  // A form's links must not submit it: each is a plain button.
  const link = (label: string, go: () => void) => html`<button part="button" type="button" class="link" @click=${go}>${label}</button>`;
  const close = link(s.close, () => feedback.closePanel());
  // One correction an answer: once it is sent, the popover asks for no other.
  const suggest = feedback.corrected ? '' : link(s.suggestCorrection, () => feedback.showPanel({ kind: 'correction' }));
  switch (panel.kind) {
    case 'reasons':
      return html`<h2 id="rf-panel-title">${s.reasonsTitle}</h2>
        <ul class="options">
          ${reasonLabels(s).map(
            (label, i) =>
              html`<li><button part="button reason" ?data-autofocus=${i === 0} @click=${() => feedback.chooseReason(REASONS[i]!)}>${label}</button></li>`,
          )}
        </ul>
        <div class="actions">${suggest} ${close}</div>`;
    case 'other':
      return html`<h2 id="rf-panel-title">${s.reasonsTitle}</h2>
        <label for="rf-other">${s.otherLabel}</label>
        <textarea id="rf-other" rows="3" maxlength=${TYPED_TEXT.attribution.text} data-autofocus></textarea>
        <div class="actions">
          <button part="button submit" @click=${(e: Event) => feedback.chooseReason('other', value(e, '#rf-other'))}>${s.send}</button>
          ${close}
        </div>`;
    case 'sources':
      return html`<h2 id="rf-panel-title">${s.sourcesTitle}</h2>
        <ul class="options column">
          ${[
            // Each cited chunk once, however many links cite it (inline "[1]" links, then a source list: its last link's label),
            // by the numbers the reader sees ([1], [2]…), not the order the answer cites them in. The sort is stable: a chunk
            // takes the place of its lowest number, and links of one number keep the answer's order, those of none last.
            ...new Map(
              feedback
                .citations()
                .sort((a, b) => citationNumber(a.label) - citationNumber(b.label))
                .map((c) => [c.chunkId, shorten(c.label)]),
            ),
          ].map(
            ([chunkId, label], i) =>
              html`<li><button part="button flag" ?data-autofocus=${i === 0} aria-pressed=${feedback.flagged.has(chunkId)} @click=${() => feedback.flagWrongSource(chunkId)}>${feedback.flagged.has(chunkId) ? s.sourceFlagged : s.flagSource}: ${label}</button></li>`,
          )}
        </ul>
        <div class="actions">${suggest} ${close}</div>`;
    case 'correction':
      return html`<h2 id="rf-panel-title">${s.suggestCorrection}</h2>
        <form
          @submit=${(e: Event) => {
            e.preventDefault();
            const text = (e.target as HTMLFormElement).querySelector('textarea')!;
            // Spaces alone pass `required`: cleared, the field asks for the text as for an empty one.
            if (text.value.trim()) feedback.submitCorrection(text.value, value(e, '#rf-correction-source'));
            else {
              text.value = '';
              text.reportValidity();
            }
          }}
        >
          <label for="rf-correction">${s.correctionLabel}</label>
          <textarea id="rf-correction" rows="4" maxlength=${TYPED_TEXT.correction.text} required data-autofocus></textarea>
          <label for="rf-correction-source">${s.correctionSourceLabel}</label>
          <input id="rf-correction-source" maxlength=${TYPED_TEXT.correction.source} />
          <div class="actions">
            <button part="button submit" type="submit">${s.send}</button>
            ${link(s.cancel, () => feedback.closePanel())}
          </div>
        </form>`;
    case 'thanks':
      return html`<h2 id="rf-panel-title" data-autofocus tabindex="-1">${s.thanks}</h2>
        <div class="actions">${suggest} ${close}</div>`;
  }
}
