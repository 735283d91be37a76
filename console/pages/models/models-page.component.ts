import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { ApiRequestError, api } from '../../api/client.ts';
import type { ModelRegistry, ModelRollout, ModelSummary } from '../../api/types.ts';
import type { Route } from '../../app/router.ts';
import { dateTime } from '../../i18n/locale.ts';
import { format, type Locale, type StringKey, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { dialogStyles } from '../../ui/dialog.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import type { Words } from '../../ui/words.ts';
import { findingText } from './gate-findings.ts';
import { type EvaluationRow, evaluationRows, gain, metric } from './model-evaluation.ts';
import { styles } from './models-page.styles.ts';

/** A change to what users get, waiting for the admin's confirmation. */
type Rollout = { action: 'promote'; model: ModelSummary; from: string | null } | { action: 'rollback'; version: string };

/**
 * The model registry: every trained reranker with the gate's evaluation (nDCG@5, nDCG@10 and
 * MRR@10, overall and per layer, against what was served and retrieval's order), its decision
 * and reasons, which one users get; promote and roll back, each after a confirmation.
 */
export class ModelsPage extends LitElement {
  static override styles = [baseStyles, dialogStyles, pageStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    readOnly: { type: Boolean },
    registry: { state: true },
    error: { state: true },
    status: { state: true },
    pending: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  /** A viewer key's: the registry without promote and roll back, which it may not do. */
  declare readOnly: boolean;
  declare registry: ModelRegistry | undefined;
  /** Why the registry could not be fetched. */
  declare error: unknown;
  declare status: Words | undefined;
  declare pending: Rollout | undefined;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.registry = await api<ModelRegistry>('/v1/admin/models');
      this.error = undefined;
    } catch (err) {
      // A registry read before a change just made would show what users no longer get: it goes.
      this.registry = undefined;
      this.error = err;
    }
  }

  override render() {
    const s = this.strings;
    const r = this.registry;
    return html`<h1 tabindex="-1">${s.modelsTitle}</h1>
      <p class="intro">${s.modelsIntro}</p>
      <p class="error" role="alert">${this.error ? loadFailed(this.error, s, this, () => void this.load()) : ''}</p>
      ${r ? this.renderServed(r) : this.error ? this.renderStatus() : html`<p class="muted">${s.loading}</p>`} ${r ? this.renderHistory(r.rollouts, r.models) : nothing}
      ${r && !r.models.length ? html`<p class="card empty">${s.modelsEmpty}</p>` : nothing} ${r?.models.map((m) => this.renderModel(m))} ${this.renderDialog()}`;
  }

  private renderServed(r: ModelRegistry) {
    const s = this.strings;
    const current = r.current;
    return html`<section class="card serving" aria-label=${s.servedBadge} tabindex="-1">
      <p data-field="served">${current ? format(s.modelsServed, { version: current }) : s.modelsServedRetrieval}</p>
      ${current ? this.renderServedBy(r.rollouts[0]) : nothing}
      ${current && !this.readOnly ? html`<button type="button" @click=${() => this.ask({ action: 'rollback', version: current })}>${s.rollBack}</button>` : nothing}
      ${this.readOnly ? html`<p class="muted" data-field="read-only">${s.modelsViewerOnly}</p>` : nothing}
      ${this.renderStatus()}
    </section>`;
  }

  /** What a promotion or rollback did: beside what is served, or alone when the registry could not be read again after it. */
  private renderStatus() {
    return html`<p role="status" class="status">${this.status?.(this.strings) ?? ''}</p>`;
  }

  /** How the served model came to be served: the last rollout, by the gate or an admin, or a rollback back to it. */
  private renderServedBy(last: ModelRollout | undefined) {
    if (!last) return nothing;
    const s = this.strings;
    const how = last.action === 'rollback' ? s.servedBy_rollback : last.by === 'gate' ? s.servedBy_gate : s.servedBy_admin;
    return html`<p class="muted" data-field="served-by">${format(how, { at: dateTime(last.at, this.locale) })}</p>`;
  }

  /** Every promotion and rollback, newest first: when, what users got before and after, who, and why. */
  private renderHistory(rollouts: ModelRollout[], models: ModelSummary[]) {
    const s = this.strings;
    // The gate's promotion says why in the model's findings, worded in the console's language; an admin's reason is as typed.
    const findings = new Map(models.map((m) => [m.version, m.findings]));
    const why = (r: ModelRollout) => {
      const found = r.by === 'gate' && r.to !== null ? findings.get(r.to) : undefined;
      return found?.length ? found.map((f) => findingText(f, s)).join('; ') : r.reason;
    };
    const served = (version: string | null) => (version === null ? s.retrievalOrder : html`<span class="mono">${version}</span>`);
    return html`<section class="card history" aria-labelledby="history-title">
      <h2 id="history-title">${s.rolloutHistory}</h2>
      ${
        rollouts.length
          ? html`<div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">${s.rolloutWhen}</th><th scope="col">${s.rolloutChange}</th><th scope="col">${s.rolloutFrom}</th><th scope="col">${s.rolloutTo}</th>
                  <th scope="col">${s.rolloutBy}</th><th scope="col">${s.rolloutWhy}</th>
                </tr>
              </thead>
              <tbody>
                ${rollouts.map(
                  (r) => html`<tr data-action=${r.action} data-by=${r.by}>
                    <td>${dateTime(r.at, this.locale)}</td>
                    <td>${s[`rolloutAction_${r.action}`]}</td>
                    <td>${served(r.from)}</td>
                    <td>${served(r.to)}</td>
                    <td>${s[`rolloutBy_${r.by}`]}</td>
                    <td class="text">${why(r)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`
          : html`<p class="muted">${s.rolloutEmpty}</p>`
      }
    </section>`;
  }

  private renderModel(m: ModelSummary) {
    const s = this.strings;
    const titleId = `model-${m.version}`;
    const at = dateTime(m.createdAt, this.locale);
    return html`<article class="card model" data-version=${m.version} data-current=${m.current ? 'true' : 'false'} aria-labelledby=${titleId}>
      <header>
        <h2 id=${titleId} class="mono">${m.version}</h2>
        ${m.current ? html`<span class="badge served">${s.servedBadge}</span>` : nothing}
        <span class="badge ${m.decision}" data-field="decision">${s[`decision_${m.decision}`]}</span>
        <span class="spacer"></span>
        ${
          m.current || this.readOnly
            ? nothing
            : html`<button type="button" aria-label=${format(s.promoteVersion, { version: m.version })} @click=${() => this.ask({ action: 'promote', model: m, from: this.registry?.current ?? null })}>
              ${s.promote}
            </button>`
        }
      </header>
      <p class="muted">
        ${format(s.modelMeta, { at, by: s[`trainedBy_${m.trainedBy}`] ?? m.trainedBy, confirmed: m.confirmed, kb: (m.bytes / 1024).toFixed(1) })} ·
        ${m.comparedWith ? html`<span>${format(s.comparedWith, { version: m.comparedWith })}</span>` : s.comparedWithRetrieval}
      </p>
      <h3>${s.gateReasons}</h3>
      <ul class="plain reasons">
        ${(m.findings.length ? m.findings.map((f) => findingText(f, s)) : m.reasons).map((reason) => html`<li class="text">${reason}</li>`)}
      </ul>
      ${this.renderEvaluation(m)}
    </article>`;
  }

  private renderEvaluation(m: ModelSummary) {
    const s = this.strings;
    const rows = evaluationRows(m.evaluation);
    if (!rows.length) return html`<p class="muted">${s.noEvaluation}</p>`;
    const scope = (r: EvaluationRow) => (r.scope === 'overall' ? s.scope_overall : (s[`layer_${r.scope}` as StringKey] ?? r.scope));
    return html`<div class="scroll">
      <table class="evaluation">
        <caption>${format(s.evaluationCaption, { version: m.version })}</caption>
        <thead>
          <tr>
            <th scope="col">${s.scope}</th><th scope="col">${s.queriesCount}</th><th scope="col">${s.ndcg5}</th><th scope="col">${s.ndcg5Gain}</th>
            <th scope="col">${s.ndcg10}</th><th scope="col">${s.mrr10}</th><th scope="col">${s.retrievalNdcg5}</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (r) => html`<tr data-scope=${r.scope}>
              <th scope="row">${scope(r)}</th>
              <td>${r.candidate.queries}</td>
              <td data-metric="ndcg5">${metric(r.candidate.ndcg5)}</td>
              <td data-metric="gain">${r.current ? gain(r.candidate.ndcg5 - r.current.ndcg5) : '–'}</td>
              <td data-metric="ndcg10">${metric(r.candidate.ndcg10)}</td>
              <td data-metric="mrr10">${metric(r.candidate.mrr10)}</td>
              <td>${r.retrieval ? metric(r.retrieval.ndcg5) : '–'}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  private renderDialog() {
    const s = this.strings;
    const p = this.pending;
    const title = !p ? '' : p.action === 'promote' ? format(s.promoteTitle, { version: p.model.version }) : format(s.rollBackTitle, { version: p.version });
    return html`<dialog aria-labelledby="rollout-title" @close=${() => (this.pending = undefined)}>
      <form @submit=${this.confirm}>
        <h2 id="rollout-title">${title}</h2>
        <p>${p?.action === 'rollback' ? s.rollBackBody : s.promoteBody}</p>
        ${p?.action === 'promote' && p.model.decision === 'rejected' ? html`<p class="warn">${s.promoteOverrules}</p>` : nothing}
        <label for="rollout-reason">${s.rolloutReason}</label>
        <input id="rollout-reason" name="reason" maxlength="1000" autocomplete="off" />
        <div class="actions">
          <button type="button" @click=${() => this.renderRoot.querySelector('dialog')?.close()}>${s.cancel}</button>
          <button type="submit" class="primary">${p?.action === 'rollback' ? s.rollBackConfirm : s.promoteConfirm}</button>
        </div>
      </form>
    </dialog>`;
  }

  private async ask(rollout: Rollout) {
    this.pending = rollout;
    this.status = undefined;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog');
    const reason = dialog?.querySelector('input');
    if (reason) reason.value = '';
    dialog?.showModal();
  }

  private async confirm(e: SubmitEvent) {
    e.preventDefault();
    const p = this.pending;
    const reason = String(new FormData(e.target as HTMLFormElement).get('reason') ?? '').trim();
    this.renderRoot.querySelector('dialog')?.close();
    if (!p) return;
    const json = reason ? { reason } : {};
    let status: Words;
    try {
      if (p.action === 'promote') {
        // Over the version the page showed served: if another has been served since, nothing is promoted.
        const { current } = await api<{ current: string }>(`/v1/admin/models/${encodeURIComponent(p.model.version)}/promote`, {
          method: 'POST',
          json: { ...json, from: p.from },
        });
        status = (s) => format(s.promotedNow, { version: current });
      } else {
        // The version the dialog named: if another has been served since, nothing is rolled back.
        const done = await api<{ rolledBack: string; current: string | null }>('/v1/admin/models/rollback', {
          method: 'POST',
          json: { ...json, version: p.version },
        });
        status = (s) =>
          format(s.rolledBackNow, {
            from: done.rolledBack,
            served: done.current ? format(s.modelsServed, { version: done.current }) : s.modelsServedRetrieval,
          });
      }
    } catch (err) {
      // Another change to what users get came first (another tab, the gate): nothing was done, and the registry read again shows it.
      const raced = err instanceof ApiRequestError && err.status === 409;
      status = (s) => (raced ? s.rolloutRaced : errorText(err, s));
    }
    // Announced with the registry it describes, so the page never says one thing and shows another.
    await this.load();
    this.status = status;
    await this.updateComplete;
    // The button that opened the dialog may be gone (a served model has no Promote button): the keyboard goes where the outcome is.
    // With no registry (it could not be read again), to Retry, or the heading when asking again will not help.
    const root = this.renderRoot;
    const serving = root.querySelector<HTMLElement>('.serving');
    (serving?.querySelector('button') ?? serving ?? root.querySelector<HTMLElement>('.retry') ?? root.querySelector('h1'))?.focus();
  }
}
