import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { live } from 'lit/directives/live.js';
import * as v from 'valibot';
import { PROMPT_TRIGGERS, type WidgetConfig, WidgetConfigSchema } from '../../../shared/schema/config.ts';
import { ApiRequestError, versioned } from '../../api/client.ts';
import type { Route } from '../../app/router.ts';
import { format, type Locale, type StringKey, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { OneSave } from '../../ui/one-save.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import { type Refusal, refusals, saidOf, unshownText } from '../../ui/refusal.ts';
import type { Words } from '../../ui/words.ts';
import { configIssue } from './config-issue.ts';
import { type ConfigDraft, fromDraft, type PromptDraft, toDraft } from './prompt-form.ts';
import { styles } from './prompts-page.styles.ts';
import './widget-preview.ts';

const THRESHOLDS = ['rephraseSimilarity', 'rephraseWindowMs', 'bounceWindowMs', 'focusedDwellMs', 'largeCopyChars', 'repeatedThumbsDown'] as const;

/**
 * The widget config GET /v1/config serves (contextual prompts with their triggers and caps,
 * rating mode, thresholds), edited in a form the shared schema checks as it changes, saved with
 * PUT /v1/config, and previewed live in the real `<rag-feedback>`.
 */
export class PromptsPage extends LitElement {
  static override styles = [baseStyles, pageStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    draft: { state: true },
    error: { state: true },
    status: { state: true },
    refused: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  declare draft: ConfigDraft | undefined;
  /** Why the config could not be fetched. */
  declare error: unknown;
  declare status: Words | undefined;
  /** Where the API refused the draft last saved (`prompts.1.maxPerDay`), every field it named, and what it said, until the draft is edited. */
  declare refused: Refusal[] | undefined;
  /** The version the draft was read at: a save over any other (another admin's since) is refused. */
  private etag: string | undefined;
  private readonly saving = new OneSave(this);

  override connectedCallback() {
    super.connectedCallback();
    this.load();
  }

  private load() {
    this.error = undefined;
    versioned<WidgetConfig>('/v1/admin/config').then(
      ({ body, etag }) => {
        this.draft = toDraft(body);
        this.etag = etag ?? undefined;
      },
      (err) => (this.error = err),
    );
  }

  /** The first problem in the draft as last rendered (or every field the API refused, once each): where each is and what it is, for its field to show. */
  private issues: { path: string; message: string }[] = [];
  /** The problems last rendered beside a field, by path: an API refusal of any other is said in the status line. */
  private marked = new Set<string>();

  /**
   * The draft as the schema reads it: the config to save and preview, or the first problem (one in
   * a prompt just added last), and whether it is in such a prompt.
   */
  private checked(): { config: WidgetConfig } | { problem: string; field: string; path: string; message: string; fresh: boolean } {
    const parsed = v.safeParse(WidgetConfigSchema, fromDraft(this.draft!));
    if (parsed.success) return { config: parsed.output };
    // Only the text a prompt just added still lacks waits; anything else wrong in it is said at once.
    const inFresh = (issue: v.BaseIssue<unknown>) => {
      const [top, n, field] = (issue.path ?? []).map((item) => (item as { key?: unknown }).key);
      return top === 'prompts' && typeof n === 'number' && field === 'text' && this.draft!.prompts[n]?.fresh === true;
    };
    const issues = [...parsed.issues].sort((a, b) => Number(inFresh(a)) - Number(inFresh(b)));
    const { field, message, path } = configIssue(issues, this.strings);
    return { problem: format(this.strings.invalidConfig, { field, message }), field, path, message, fresh: inFresh(issues[0]!) };
  }

  /**
   * A field's invalid state and the message shown beside it, when the first problem is there.
   * A prompt with no text at all is marked on its English text, and one the schema refuses whole
   * (an id another prompt has) on its id. The message sits outside the field's label, which is its
   * name, and describes the field instead (`describedBy`).
   */
  private fieldState(path: string) {
    const here = this.issues.find(
      ({ path: at }) =>
        at === path || (path.endsWith('.text.en') && at === path.slice(0, -'.en'.length)) || (path.endsWith('.id') && at === path.slice(0, -'.id'.length)),
    );
    if (here) this.marked.add(here.path);
    const id = `error-${path}`;
    return {
      invalid: here ? 'true' : 'false',
      describedBy: here ? id : nothing,
      message: here ? html`<span id=${id} class="error field-error" data-field="field-error">${here.message}</span>` : nothing,
    };
  }

  override render() {
    const s = this.strings;
    return html`<h1 tabindex="-1">${s.promptsTitle}</h1>
      <p class="intro">${s.promptsIntro}</p>
      <p class="error" role="alert">${this.error ? loadFailed(this.error, s, this, () => this.load()) : ''}</p>
      ${this.draft ? this.renderEditor(this.draft) : this.error ? nothing : html`<p class="muted">${s.loading}</p>`}`;
  }

  private renderEditor(d: ConfigDraft) {
    const s = this.strings;
    const checked = this.checked();
    // A prompt just added lacks its text: Save waits for it, but nothing is wrong yet.
    const shown = 'problem' in checked && !checked.fresh ? checked : undefined;
    const refused = this.refused ?? [];
    this.issues = shown ? [shown] : [...new Set(refused.map(({ path }) => path))].map((path) => ({ path, message: saidOf(refused, path)!(s) }));
    this.marked = new Set();
    const rating = this.fieldState('rating');
    return html`<div class="editor">
      <form class="card" novalidate @submit=${this.save}>
        <div class="check">
          <label
            ><input
              type="checkbox"
              aria-invalid=${rating.invalid}
              aria-describedby=${rating.describedBy}
              .checked=${d.rating}
              @change=${(e: Event) => this.edit({ rating: (e.target as HTMLInputElement).checked })}
            />
            ${s.ratingMode}</label
          >${rating.message}
        </div>
        <h2>${s.promptsList}</h2>
        ${d.prompts.length ? d.prompts.map((p, i) => this.renderPrompt(p, i)) : html`<p class="muted">${s.noPrompts}</p>`}
        <button type="button" class="add" @click=${this.addPrompt}>${s.addPrompt}</button>
        <h2>${s.thresholdsTitle}</h2>
        <div class="grid">
          ${THRESHOLDS.map((t) => {
            const field = this.fieldState(`thresholds.${t}`);
            return html`<div class="field">
              <label
                >${s[`threshold_${t}`]}
                <input
                  type="number"
                  step=${t === 'rephraseSimilarity' ? '0.05' : '1'}
                  aria-invalid=${field.invalid}
                  aria-describedby=${field.describedBy}
                  .value=${live(d.thresholds[t] ?? '')}
                  @input=${(e: Event) => this.edit({ thresholds: { ...d.thresholds, [t]: (e.target as HTMLInputElement).value } })}
              /></label>
              ${field.message}
            </div>`;
          })}
        </div>
        <p id="problem" class="error" role="alert" data-field="problem">${shown?.problem ?? ''}</p>
        <div class="actions">
          <button
            type="submit"
            class="primary"
            aria-disabled=${'problem' in checked || this.saving.busy ? 'true' : 'false'}
            aria-describedby=${shown ? 'problem' : nothing}
          >
            ${s.save}
          </button>
          <span role="status">${this.status?.(s) ?? ''}</span>
        </div>
      </form>
      <section class="card preview" aria-labelledby="preview-title">
        <h2 id="preview-title">${s.previewTitle}</h2>
        ${
          'config' in checked
            ? html`<rf-widget-preview .strings=${s} locale=${this.locale} .config=${checked.config}></rf-widget-preview>`
            : html`<p class="muted" data-field="preview-paused">${checked.fresh ? s.previewWaits : format(s.previewPaused, { field: checked.field, message: checked.message })}</p>`
        }
      </section>
    </div>`;
  }

  private renderPrompt(p: PromptDraft, i: number) {
    const s = this.strings;
    const n = i + 1;
    const set = (change: Partial<PromptDraft>) =>
      this.edit({
        prompts: this.draft!.prompts.map((x, j) => (j === i ? { ...x, ...change, fresh: 'en' in change || 'zh' in change ? undefined : x.fresh } : x)),
      });
    const at = (field: string) => this.fieldState(`prompts.${i}.${field}`);
    const text = (label: string, value: string, key: 'en' | 'zh') => {
      const field = at(key === 'en' ? 'text.en' : 'text.zh-CN');
      return html`<div class="field wide">
        <label
          >${label}
          <input
            .value=${value}
            maxlength="300"
            aria-invalid=${field.invalid}
            aria-describedby=${field.describedBy}
            @input=${(e: Event) => set({ [key]: (e.target as HTMLInputElement).value })}
        /></label>
        ${field.message}
      </div>`;
    };
    const id = at('id');
    const trigger = at('trigger');
    /** A cap on how often the prompt shows: a whole number, 0 or more. */
    const count = (label: string, key: 'maxPerSession' | 'maxPerDay') => {
      const field = at(key);
      return html`<div class="field">
        <label
          >${label}
          <input
            type="number"
            min="0"
            step="1"
            aria-invalid=${field.invalid}
            aria-describedby=${field.describedBy}
            .value=${live(p[key])}
            @input=${(e: Event) => set({ [key]: (e.target as HTMLInputElement).value })}
        /></label>
        ${field.message}
      </div>`;
    };
    return html`<fieldset data-prompt=${i}>
      <legend>${format(s.promptN, { n })}</legend>
      <div class="grid">
        <div class="field">
          <label
            >${s.promptId}
            <input
              class="mono"
              .value=${p.id}
              maxlength="64"
              aria-invalid=${id.invalid}
              aria-describedby=${id.describedBy}
              @input=${(e: Event) => set({ id: (e.target as HTMLInputElement).value })}
          /></label>
          ${id.message}
        </div>
        <div class="field">
          <label
            >${s.trigger}
            <select
              aria-invalid=${trigger.invalid}
              aria-describedby=${trigger.describedBy}
              .value=${live(p.trigger)}
              @change=${(e: Event) => set({ trigger: (e.target as HTMLSelectElement).value })}
            >
              ${PROMPT_TRIGGERS.map((t) => html`<option value=${t} ?selected=${t === p.trigger}>${s[`trigger_${t}` as StringKey]}</option>`)}
            </select></label
          >
          ${trigger.message}
        </div>
        ${text(s.promptTextEn, p.en, 'en')} ${text(s.promptTextZh, p.zh, 'zh')}
        ${count(s.maxPerSession, 'maxPerSession')} ${count(s.maxPerDay, 'maxPerDay')}
      </div>
      <button type="button" class="remove" @click=${() => this.removePrompt(i)}>${format(s.removePrompt, { n })}</button>
    </fieldset>`;
  }

  private edit(change: Partial<ConfigDraft>) {
    this.draft = { ...this.draft!, ...change };
    this.status = undefined;
    this.refused = undefined;
  }

  /** Focus goes to the new prompt's first field, to be filled in. */
  private async addPrompt() {
    const n = this.draft!.prompts.length + 1;
    this.edit({
      prompts: [...this.draft!.prompts, { id: `prompt-${n}`, trigger: 'rephrase', en: '', zh: '', maxPerSession: '1', maxPerDay: '3', fresh: true }],
    });
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>(`fieldset[data-prompt="${n - 1}"] input`)?.focus();
  }

  /** The prompt's Remove leaves with it: focus goes to the Remove now in its place, else the one above, else Add. */
  private async removePrompt(i: number) {
    this.edit({ prompts: this.draft!.prompts.filter((_, j) => j !== i) });
    await this.updateComplete;
    const removes = this.renderRoot.querySelectorAll<HTMLButtonElement>('button.remove');
    (removes[i] ?? removes[i - 1] ?? this.renderRoot.querySelector<HTMLButtonElement>('button.add'))?.focus();
  }

  /** Another admin saved since the draft was read: the draft stays, and saving it again (knowingly) replaces theirs. */
  private async savedElsewhere() {
    this.status = (s) => s.configSavedElsewhere;
    try {
      this.etag = (await versioned<WidgetConfig>('/v1/admin/config')).etag ?? undefined;
    } catch (err) {
      // Not knowing their version, a save still refuses to replace it.
      this.status = (s) => `${s.configSavedElsewhere} ${errorText(err, s)}`;
    }
  }

  private save(e: SubmitEvent) {
    e.preventDefault();
    const checked = this.checked();
    if (!('config' in checked)) return void this.sayWhyNotSaved();
    void this.saving.run(() => this.send(checked.config));
  }

  /**
   * Save is marked aria-disabled while the draft cannot be saved (not disabled, which would drop
   * the keyboard to the page's body). Pressed, it says why in the problem line, a prompt just added
   * lacking its text included (asked to save, that it lacks it is now an error), and the field at
   * fault takes focus.
   */
  private async sayWhyNotSaved() {
    if (this.draft!.prompts.some((p) => p.fresh)) this.draft = { ...this.draft!, prompts: this.draft!.prompts.map(({ fresh: _, ...p }) => p) };
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus();
  }

  private async send(config: WidgetConfig) {
    this.refused = undefined;
    this.status = undefined;
    const sent = this.draft;
    try {
      const saved = await versioned<WidgetConfig>('/v1/config', { method: 'PUT', json: config, ifMatch: this.etag });
      // The saved config (as the collector stored it) replaces the draft only if nothing was typed while it was on its way.
      if (this.draft === sent) this.draft = toDraft(saved.body);
      this.etag = saved.etag ?? undefined;
      this.status = (s) => s.saved;
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 412) return this.savedElsewhere();
      // Each field at fault that the form shows is said beside it, the first taking focus; any other in the status line.
      const refused = refusals(err);
      if (refused.length) {
        this.refused = refused;
        await this.updateComplete;
        const field = this.renderRoot.querySelector<HTMLElement>('form [aria-invalid="true"]');
        if (field) {
          const unshown = this.refused.filter(({ path }) => !this.marked.has(path));
          if (unshown.length) this.status = unshownText(unshown);
          return field.focus();
        }
        this.refused = undefined;
        this.status = unshownText(refused);
        return;
      }
      this.status = (s) => errorText(err, s);
    }
  }
}
