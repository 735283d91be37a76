import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import * as v from 'valibot';
import { EXTERNAL_ID_MAX } from '../../../shared/schema/common.ts';
import { type LoopSettings, LoopSettingsSchema, weeklyReviewCapacity } from '../../../shared/schema/settings.ts';
import { ApiRequestError, api, versioned } from '../../api/client.ts';
import type { Route } from '../../app/router.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { dialogStyles } from '../../ui/dialog.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import { issueText } from '../../ui/issue-text.ts';
import { guardLeaving } from '../../ui/leave-guard.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { OneSave } from '../../ui/one-save.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import { placed } from '../../ui/refusal.ts';
import type { Words } from '../../ui/words.ts';
import { styles } from './settings-page.styles.ts';

/** How long one erasure call may take before the page says the collector could not be reached. */
const ERASE_CALL_TIMEOUT_MS = 60_000;

/** What a field's message is read from: the schema's issue, a field left blank, or what the API said refusing it. */
type FieldIssue = v.BaseIssue<unknown> | 'empty' | Words;

/** The settings in the order the form shows them, with the input step each needs. */
const FIELDS: readonly { name: keyof LoopSettings; step: string }[] = [
  { name: 'reviewMinutesPerWeek', step: '1' },
  { name: 'secondsPerReviewItem', step: '1' },
  { name: 'trainingMinConfirmed', step: '1' },
  { name: 'retrainEveryDays', step: '1' },
  { name: 'gateMinGain', step: '0.001' },
  { name: 'gateLayerTolerance', step: '0.005' },
  { name: 'trainingMaxShareOneOrigin', step: '0.05' },
  { name: 'badTraceScore', step: '0.05' },
  { name: 'goodTraceScore', step: '0.05' },
  { name: 'retentionDays', step: '1' },
  { name: 'aggregateRetentionDays', step: '1' },
];

/**
 * The loop's settings (retention, review budget, training threshold, what counts as a bad or good
 * answer), validated in the browser by the same schema the API applies; and the erasure of one
 * hashed user id, after a confirmation.
 */
export class SettingsPage extends LitElement {
  static override styles = [baseStyles, dialogStyles, pageStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    settings: { state: true },
    theirs: { state: true },
    fieldIssues: { state: true },
    status: { state: true },
    error: { state: true },
    erasing: { state: true },
    erasure: { state: true },
    erasingNow: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  /** The settings the form was filled from: what is typed over them stays until a save lands. */
  declare settings: LoopSettings | undefined;
  /** What another admin saved after the form was filled, once a save was refused for it: shown beside the fields it changed. */
  declare theirs: LoopSettings | undefined;
  /** The version the form's settings were read at (or, after a refused save, theirs): a save over any other is refused. */
  private etag: string | undefined;
  /** What the schema or the API refused per field (or `empty`: a field left blank), worded at render time in the console's language. */
  declare fieldIssues: Partial<Record<keyof LoopSettings, FieldIssue>>;
  declare status: Words | undefined;
  /** Why the settings could not be fetched. */
  declare error: unknown;
  /** The hashed user id waiting for confirmation. */
  declare erasing: string | undefined;
  declare erasure: Words | undefined;
  /** The id being erased, call after call: one erasure at a time, so its counts add up. */
  declare erasingNow: string | undefined;
  private readonly saving = new OneSave(this);

  constructor() {
    super();
    this.fieldIssues = {};
  }

  override connectedCallback() {
    super.connectedCallback();
    this.load();
  }

  private load() {
    this.error = undefined;
    versioned<LoopSettings>('/v1/admin/settings').then(
      ({ body, etag }) => {
        this.settings = body;
        this.etag = etag ?? undefined;
      },
      (err) => (this.error = err),
    );
  }

  override render() {
    const s = this.strings;
    return html`<h1 tabindex="-1">${s.settingsTitle}</h1>
      <p class="intro">${s.settingsIntro}</p>
      <p class="error" role="alert">${this.error ? loadFailed(this.error, s, this, () => this.load()) : ''}</p>
      ${this.settings ? this.renderForm(this.settings) : this.error ? nothing : html`<p class="muted">${s.loading}</p>`} ${this.renderErasure()}`;
  }

  private renderForm(settings: LoopSettings) {
    const s = this.strings;
    return html`<form class="card settings" novalidate @submit=${this.save}>
      ${FIELDS.map(({ name, step }) => {
        const issue = this.fieldIssues[name];
        const error = issue === 'empty' ? s.issue_empty : typeof issue === 'function' ? issue(s) : issue ? issueText(issue, s) : undefined;
        const theirs = this.theirs && this.theirs[name] !== settings[name] ? this.theirs[name] : undefined;
        return html`<div class="field">
          <label for=${name}>${s[`setting_${name}`]}</label>
          <input id=${name} name=${name} type="number" step=${step} .value=${String(settings[name])} aria-invalid=${error ? 'true' : 'false'} aria-describedby="${name}-help ${name}-error" />
          <span id="${name}-help" class="muted">${s[`setting_${name}_help`]}</span>
          <span id="${name}-error" class="error">${error ?? ''}</span>
          ${theirs === undefined ? nothing : html`<span class="muted" data-field="theirs">${format(s.savedMeanwhile, { value: theirs })}</span>`}
        </div>`;
      })}
      <p>${format(s.weeklyBudget, { n: weeklyReviewCapacity(settings) })}</p>
      <div class="actions"><button type="submit" class="primary" aria-disabled=${this.saving.busy ? 'true' : 'false'}>${s.save}</button> <span role="status">${this.status?.(s) ?? ''}</span></div>
    </form>`;
  }

  private renderErasure() {
    const s = this.strings;
    return html`<section class="card" aria-labelledby="erasure-title">
      <h2 id="erasure-title">${s.erasureTitle}</h2>
      <p class="intro">${s.erasureIntro}</p>
      <form class="filters" @submit=${this.askErase}>
        <label>${s.userIdHash} <input name="userIdHash" required maxlength=${EXTERNAL_ID_MAX} spellcheck="false" autocomplete="off" /></label>
        <button type="submit" ?disabled=${this.erasingNow !== undefined}>${s.erase}</button>
      </form>
      <p role="status">${this.erasingNow === undefined ? (this.erasure?.(s) ?? '') : format(s.erasing, { id: this.erasingNow })}</p>
      <dialog aria-labelledby="erase-title" @close=${() => (this.erasing = undefined)}>
        <h2 id="erase-title">${format(s.eraseConfirmTitle, { id: this.erasing ?? '' })}</h2>
        <p>${s.eraseConfirmBody}</p>
        <div class="actions">
          <button type="button" @click=${() => this.renderRoot.querySelector('dialog')?.close()}>${s.cancel}</button>
          <button type="button" class="danger" @click=${this.erase}>${s.eraseConfirm}</button>
        </div>
      </dialog>
    </section>`;
  }

  private save(e: SubmitEvent) {
    e.preventDefault();
    void this.saving.run(() => this.send(e.target as HTMLFormElement));
  }

  private async send(form: HTMLFormElement) {
    const data = new FormData(form);
    // A field left blank is refused here: the schema would quietly put the default back.
    const blank = FIELDS.filter(({ name }) => String(data.get(name) ?? '').trim() === '').map(({ name }) => name);
    const input = Object.fromEntries(FIELDS.filter(({ name }) => !blank.includes(name)).map(({ name }) => [name, Number(data.get(name))]));
    const parsed = v.safeParse(LoopSettingsSchema, input);
    this.status = undefined;
    if (blank.length || !parsed.success) {
      const errors: Partial<Record<keyof LoopSettings, FieldIssue>> = {};
      for (const name of blank) errors[name] = 'empty';
      for (const issue of parsed.issues ?? []) {
        const key = (issue.path?.[0] as { key?: keyof LoopSettings } | undefined)?.key;
        if (key && !errors[key]) errors[key] = issue;
      }
      // In the form's order, so focus goes to the first field with a problem.
      this.fieldIssues = Object.fromEntries(FIELDS.filter(({ name }) => errors[name]).map(({ name }) => [name, errors[name]]));
      this.focusIssue();
      return;
    }
    this.fieldIssues = {};
    if (!parsed.success) return; // unreachable: refused above, but the type does not know it
    try {
      const saved = await versioned<LoopSettings>('/v1/admin/settings', { method: 'PUT', json: parsed.output, ifMatch: this.etag });
      this.settings = saved.body;
      this.etag = saved.etag ?? undefined;
      this.theirs = undefined;
      this.status = (s) => s.saved;
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 412) return this.savedElsewhere();
      // Each field at fault that the form shows is said beside it, any other in the status line.
      const { said, status } = placed(
        err,
        FIELDS.map(({ name }) => name),
      );
      this.status = status;
      if (!said.size) return;
      // In the form's order, so focus goes to the first field with a problem.
      this.fieldIssues = Object.fromEntries(said);
      await this.updateComplete;
      this.focusIssue();
    }
  }

  /**
   * Another admin saved since the form was filled: what is typed stays, what they saved is shown
   * beside the fields it changed, and saving again (knowingly) replaces it.
   */
  private async savedElsewhere() {
    this.status = (s) => s.settingsSavedElsewhere;
    try {
      const latest = await versioned<LoopSettings>('/v1/admin/settings');
      this.theirs = latest.body;
      this.etag = latest.etag ?? undefined;
    } catch (err) {
      // Not knowing what they saved, a save still refuses to replace it.
      this.status = (s) => `${s.settingsSavedElsewhere} ${errorText(err, s)}`;
    }
  }

  /** Focus goes to the first field with a problem. */
  private focusIssue() {
    (this.renderRoot.querySelector(`#${Object.keys(this.fieldIssues)[0]}`) as HTMLInputElement | null)?.focus();
  }

  private askErase(e: SubmitEvent) {
    e.preventDefault();
    const id = String(new FormData(e.target as HTMLFormElement).get('userIdHash') ?? '').trim();
    if (!id || this.erasingNow !== undefined) return;
    this.erasing = id;
    this.erasure = undefined;
    this.renderRoot.querySelector('dialog')?.showModal();
  }

  private async erase() {
    const id = this.erasing;
    this.renderRoot.querySelector('dialog')?.close();
    if (!id || this.erasingNow !== undefined) return;
    this.erasingNow = id;
    try {
      const total = { traces: 0, events: 0, reviewItems: 0, corrections: 0 };
      // A user with many answers takes several calls, each erasing whole batches. Closing the tab or
      // signing out meanwhile would leave the user half erased until erased again: both ask first.
      await guardLeaving(async () => {
        for (let done = false; !done; ) {
          // A call starts batches for about 8 s and finishes the one under way: more than a plain change takes.
          const answer = await api<{ deleted: typeof total; done: boolean }>(`/v1/admin/users/${encodeURIComponent(id)}`, {
            method: 'DELETE',
            timeoutMs: ERASE_CALL_TIMEOUT_MS,
          });
          for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += answer.deleted[k];
          // A call past the user's traces still rewrites the stored models that remember their
          // questions (each call makes headway): the erasure is done only when the collector says so.
          done = answer.done;
        }
      }, 'signOutErasing');
      this.erasure = (s) => format(s.erased, { id, ...total });
    } catch (err) {
      this.erasure = (s) => errorText(err, s);
    } finally {
      this.erasingNow = undefined;
    }
  }
}
