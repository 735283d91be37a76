import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { WidgetConfig } from '../../../shared/schema/config.ts';
// The real widget: this module loads with the prompt settings page only.
import { RagFeedback } from '../../../widget/index.ts';
import type { Locale, Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';

type Widget = HTMLElement & { reportCopy(chars: number): void; updateComplete: Promise<boolean> };

let previews = 0;

/**
 * The real `<rag-feedback>` under a sample answer, with the config being edited: no endpoint and
 * no write key, so nothing it does is recorded. "Show prompt" shows one prompt as configured (its
 * text and answers), whatever its trigger, by making it the preview's large-copy prompt.
 */
export class WidgetPreview extends LitElement {
  static override styles = baseStyles;
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    config: { attribute: false },
    shown: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare config: WidgetConfig;
  /** The prompt on show, if any. */
  declare shown: string | undefined;
  private key = 0;

  /** Every change makes a new element, which reads the page-wide options as it starts. */
  override willUpdate() {
    RagFeedback.configure({ loadConfig: false, config: this.previewConfig(), locale: this.locale });
    this.key++;
  }

  /** The edited config; with a prompt on show, that prompt alone, shown on a large copy and never capped. */
  private previewConfig(): WidgetConfig {
    const prompt = this.config.prompts.find((p) => p.id === this.shown);
    if (!prompt) return { ...this.config, prompts: [] };
    return { ...this.config, prompts: [{ ...prompt, trigger: 'large_copy', maxPerSession: 100, maxPerDay: 1000 }] };
  }

  override render() {
    const s = this.strings;
    const id = `preview-${++previews}`;
    return html`${keyed(this.key, html`<rag-feedback trace-id=${id} session-id=${id} locale=${this.locale}><p>${s.previewAnswer}</p></rag-feedback>`)}
      <div class="actions">
        ${this.config.prompts.map((p) => (p.id ? html`<button type="button" @click=${() => this.show(p.id)}>${s.previewPrompt.replace('{id}', p.id)}</button>` : nothing))}
      </div>`;
  }

  private async show(id: string) {
    this.shown = id;
    await this.updateComplete;
    const widget = this.renderRoot.querySelector<Widget>('rag-feedback');
    await widget?.updateComplete;
    await new Promise((r) => setTimeout(r, 0));
    widget?.reportCopy(this.config.thresholds.largeCopyChars);
  }
}

customElements.define('rf-widget-preview', WidgetPreview);
