import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { api } from '../../api/client.ts';
import type { FlaggedDocument, OwnerRule } from '../../api/types.ts';
import { paths, type Route } from '../../app/router.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import { styles } from './documents-page.styles.ts';

const p = (x: number | null) => (x === null ? null : x < 0.0001 ? x.toExponential(1) : x.toFixed(4));

/**
 * Documents the nightly tests flagged as stale (reasons, the counts the tests ran on, p-values,
 * the worst answers as evidence, the owner), and the owner rules by document-id pattern.
 */
export class DocumentsPage extends LitElement {
  static override styles = [baseStyles, pageStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    documents: { state: true },
    owners: { state: true },
    error: { state: true },
    ownersStatus: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  declare documents: FlaggedDocument[] | undefined;
  /** The rules as edited, saved with Save. */
  declare owners: OwnerRule[];
  declare error: string | undefined;
  declare ownersStatus: string;

  constructor() {
    super();
    this.owners = [];
    this.ownersStatus = '';
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      const res = await api<{ documents: FlaggedDocument[]; owners: OwnerRule[] }>('/v1/admin/documents');
      this.documents = res.documents;
      this.owners = res.owners;
    } catch (err) {
      this.error = errorText(err, this.strings);
    }
  }

  override render() {
    const s = this.strings;
    return html`<h1>${s.documentsTitle}</h1>
      <p class="intro">${s.documentsIntro}</p>
      <p class="error" role="alert">${this.error ?? ''}</p>
      ${this.renderDocuments()} ${this.documents ? this.renderOwners() : nothing}`;
  }

  private renderDocuments() {
    const s = this.strings;
    if (!this.documents) return this.error ? nothing : html`<p class="muted">${s.loading}</p>`;
    if (!this.documents.length) return html`<p class="card">${s.noFlagged}</p>`;
    return html`<div class="scroll">
      <table class="documents">
        <thead>
          <tr>
            <th scope="col">${s.document}</th><th scope="col">${s.owner}</th><th scope="col">${s.reasons}</th><th scope="col">${s.counts}</th>
            <th scope="col">${s.pValues}</th><th scope="col">${s.flagged}</th><th scope="col">${s.evidenceTraces}</th>
          </tr>
        </thead>
        <tbody>
          ${this.documents.map(
            (d) => html`<tr data-document=${d.sourceDocId}>
              <td><span class="mono">${d.sourceDocId}</span><br /><span class="muted">${d.sourceDocVersion === '*' ? s.wholeDocument : d.sourceDocVersion}</span></td>
              <td>${d.owner ?? html`<span class="muted">${s.noOwner}</span>`}</td>
              <td><ul class="plain">${d.failed.map((test) => html`<li>${s[`failed_${test}`]}</li>`)}</ul></td>
              <td>${this.renderCounts(d.counts)}</td>
              <td>
                ${d.negativeP === null ? nothing : html`${format(s.negativeP, { p: p(d.negativeP)! })}<br />`}
                ${d.requeryP === null ? nothing : format(s.requeryP, { p: p(d.requeryP)! })}
              </td>
              <td class="date">${d.firstFlagged === d.lastFlagged ? d.firstFlagged : format(s.flaggedRange, { first: d.firstFlagged, last: d.lastFlagged })}</td>
              <td>${d.evidenceTraceIds.map((id) => html`<a class="mono" href=${paths.trace(id)}>${id}</a> `)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  /** The counts the tests ran on, in words; a count the collector did not send leaves its line out. */
  private renderCounts(c: Record<string, number>) {
    const s = this.strings;
    const has = (...keys: string[]) => keys.every((k) => typeof c[k] === 'number');
    return html`${has('negative', 'scored', 'baselinePercent') ? html`${format(s.countsBad, { negative: c.negative!, scored: c.scored!, baseline: c.baselinePercent! })}<br />` : nothing}
    ${has('recentRequeried', 'recent', 'beforeRequeried', 'before') ? format(c.before ? s.countsRequeried : s.countsRequeriedNew, { recentRequeried: c.recentRequeried!, recent: c.recent!, beforeRequeried: c.beforeRequeried!, before: c.before! }) : nothing}`;
  }

  private renderOwners() {
    const s = this.strings;
    return html`<section class="card owners" aria-labelledby="owners-title">
      <h2 id="owners-title">${s.ownersTitle}</h2>
      <p class="intro">${s.ownersIntro}</p>
      <form @submit=${this.saveOwners}>
        <table>
          <thead>
            <tr><th scope="col">#</th><th scope="col">${s.pattern}</th><th scope="col">${s.owner}</th><th scope="col"><span class="visually-hidden">${s.save}</span></th></tr>
          </thead>
          <tbody>
            ${this.owners.length ? nothing : html`<tr><td colspan="4" class="muted" data-field="no-rules">${s.noOwnerRules}</td></tr>`}
            ${this.owners.map(
              (o, i) => html`<tr>
                <td>${i + 1}</td>
                <td><input aria-label="${s.pattern} ${i + 1}" class="mono" required maxlength="200" .value=${o.pattern} @input=${(e: Event) => this.edit(i, { pattern: (e.target as HTMLInputElement).value })} /></td>
                <td><input aria-label="${s.owner} ${i + 1}" required maxlength="200" .value=${o.owner} @input=${(e: Event) => this.edit(i, { owner: (e.target as HTMLInputElement).value })} /></td>
                <td>
                  <button type="button" ?disabled=${i === 0} aria-label=${format(s.moveUp, { n: i + 1 })} @click=${() => this.moveRuleUp(i)}>↑</button>
                  <button type="button" aria-label=${format(s.removeOwner, { n: i + 1 })} @click=${() => this.removeRule(i)}>✕</button>
                </td>
              </tr>`,
            )}
          </tbody>
        </table>
        <div class="actions">
          <button type="button" @click=${() => (this.owners = [...this.owners, { pattern: '', owner: '' }])}>${s.addOwner}</button>
          <button type="submit" class="primary">${s.save}</button>
          <span role="status">${this.ownersStatus}</span>
        </div>
      </form>
    </section>`;
  }

  private edit(i: number, change: Partial<OwnerRule>) {
    this.owners = this.owners.map((o, j) => (j === i ? { ...o, ...change } : o));
    this.ownersStatus = '';
  }

  private moveRuleUp(i: number) {
    const next = [...this.owners];
    [next[i - 1], next[i]] = [next[i]!, next[i - 1]!];
    this.owners = next;
  }

  private removeRule(i: number) {
    this.owners = this.owners.filter((_, j) => j !== i);
  }

  private async saveOwners(e: SubmitEvent) {
    e.preventDefault();
    try {
      const owners = this.owners.map((o) => ({ pattern: o.pattern.trim(), owner: o.owner.trim() }));
      await api('/v1/admin/owners', { method: 'PUT', json: { owners } });
    } catch (err) {
      this.ownersStatus = errorText(err, this.strings);
      return;
    }
    // Owners are matched when read: the flagged documents now show the new ones, announced with them.
    try {
      const res = await api<{ documents: FlaggedDocument[] }>('/v1/admin/documents');
      this.documents = res.documents;
      this.error = undefined;
    } catch (err) {
      this.error = errorText(err, this.strings);
    }
    this.ownersStatus = this.strings.saved;
  }
}
