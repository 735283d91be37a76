import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import * as v from 'valibot';
import { OwnerRulesSchema } from '../../../shared/schema/owners.ts';
import { ApiRequestError, api, versioned } from '../../api/client.ts';
import type { FlaggedDocument, OwnerRule } from '../../api/types.ts';
import { paths, type Route } from '../../app/router.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import { issueText } from '../../ui/issue-text.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { OneSave } from '../../ui/one-save.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import { placed } from '../../ui/refusal.ts';
import type { Words } from '../../ui/words.ts';
import { styles } from './documents-page.styles.ts';

type RuleField = keyof OwnerRule;

/** Where a rule's field shows its problem, as the API names it: `owners.2.owner`. */
const fieldKey = (i: number, field: RuleField) => `owners.${i}.${field}`;

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
    theirs: { state: true },
    ruleIssues: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  declare documents: FlaggedDocument[] | undefined;
  /** The rules as edited, saved with Save. */
  declare owners: OwnerRule[];
  /** What another admin saved after the rules were read, once a save was refused for it: shown below the edit, which stays. */
  declare theirs: OwnerRule[] | undefined;
  /** The version the rules were read at (or, after a refused save, theirs): a save over any other is refused. */
  private ownersEtag: string | undefined;
  private readonly saving = new OneSave(this);
  /** Why the documents could not be fetched. */
  declare error: unknown;
  declare ownersStatus: Words | undefined;
  /** What the shared schema (or, saving, the API) refused in the rules as edited, by `fieldKey`, worded at render time in the console's language. */
  declare ruleIssues: ReadonlyMap<string, v.BaseIssue<unknown> | Words>;

  constructor() {
    super();
    this.owners = [];
    this.ruleIssues = new Map();
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    this.error = undefined;
    try {
      // The rules from their own route, which gives their version.
      const [res, rules] = await Promise.all([
        api<{ documents: FlaggedDocument[] }>('/v1/admin/documents'),
        versioned<{ owners: OwnerRule[] }>('/v1/admin/owners'),
      ]);
      this.documents = res.documents;
      this.owners = rules.body.owners;
      this.ownersEtag = rules.etag ?? undefined;
    } catch (err) {
      this.error = err;
    }
  }

  override render() {
    const s = this.strings;
    return html`<h1 tabindex="-1">${s.documentsTitle}</h1>
      <p class="intro">${s.documentsIntro}</p>
      <p class="error" role="alert">${this.error ? loadFailed(this.error, s, this, () => void this.load()) : ''}</p>
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
      <form novalidate @submit=${this.saveOwners}>
        <table>
          <thead>
            <tr><th scope="col">#</th><th scope="col">${s.pattern}</th><th scope="col">${s.owner}</th><th scope="col"><span class="visually-hidden">${s.save}</span></th></tr>
          </thead>
          <tbody>
            ${this.owners.length ? nothing : html`<tr><td colspan="4" class="muted" data-field="no-rules">${s.noOwnerRules}</td></tr>`}
            ${this.owners.map(
              (o, i) => html`<tr>
                <td>${i + 1}</td>
                <td>${this.renderRuleField(i, 'pattern', s.pattern, o.pattern)}</td>
                <td>${this.renderRuleField(i, 'owner', s.owner, o.owner)}</td>
                <td class="rule-actions">
                  <button type="button" ?disabled=${i === 0} aria-label=${format(s.moveUp, { n: i + 1 })} @click=${() => this.moveRuleUp(i)}>↑</button>
                  <button type="button" class="remove" aria-label=${format(s.removeOwner, { n: i + 1 })} @click=${() => this.removeRule(i)}>✕</button>
                </td>
              </tr>`,
            )}
          </tbody>
        </table>
        <div class="actions">
          <button type="button" class="add" @click=${this.addRule}>${s.addOwner}</button>
          <button type="submit" class="primary" aria-disabled=${this.saving.busy ? 'true' : 'false'}>${s.save}</button>
          <span role="status">${this.ownersStatus?.(s) ?? ''}</span>
        </div>
      </form>
      ${this.renderTheirs()}
    </section>`;
  }

  /** Another admin's rules, saved after these were read: to compare with the edit before saving over them. */
  private renderTheirs() {
    const s = this.strings;
    if (!this.theirs) return nothing;
    if (!this.theirs.length) return html`<p class="muted" data-field="theirs">${s.noTheirOwnerRules}</p>`;
    return html`<div class="theirs" data-field="theirs">
      <h3 id="theirs-title">${s.theirOwnerRules}</h3>
      <ol aria-labelledby="theirs-title">
        ${this.theirs.map((o) => html`<li><span class="mono">${o.pattern}</span> → ${o.owner}</li>`)}
      </ol>
    </div>`;
  }

  private renderRuleField(i: number, field: RuleField, name: string, value: string) {
    const issue = this.ruleIssues.get(fieldKey(i, field));
    const id = `rule-${i}-${field}`;
    return html`<input id=${id} aria-label="${name} ${i + 1}" class=${field === 'pattern' ? 'mono' : ''} required maxlength="200" .value=${value}
        aria-invalid=${issue ? 'true' : 'false'} aria-describedby="${id}-error" @input=${(e: Event) => this.edit(i, { [field]: (e.target as HTMLInputElement).value })} />
      <span id="${id}-error" class="error">${typeof issue === 'function' ? issue(this.strings) : issue ? issueText(issue, this.strings) : ''}</span>`;
  }

  private edit(i: number, change: Partial<OwnerRule>) {
    this.owners = this.owners.map((o, j) => (j === i ? { ...o, ...change } : o));
    this.ownersStatus = undefined;
    const field = Object.keys(change)[0] as RuleField;
    if (this.ruleIssues.has(fieldKey(i, field))) this.ruleIssues = new Map([...this.ruleIssues].filter(([key]) => key !== fieldKey(i, field)));
  }

  /**
   * Rows that move take their place's number: problems shown are checked again on Save. Focus goes
   * with the rule moved, to its ↑ in the row above (pressed again, it moves on up), or at the top,
   * where ↑ is off, to its ✕: left in place it would be on the rule moved down.
   */
  private async moveRuleUp(i: number) {
    const next = [...this.owners];
    [next[i - 1], next[i]] = [next[i]!, next[i - 1]!];
    this.owners = next;
    this.ruleIssues = new Map();
    await this.updateComplete;
    const row = this.renderRoot.querySelectorAll('form tbody tr')[i - 1];
    (row?.querySelector<HTMLButtonElement>('button:not([disabled]):not(.remove)') ?? row?.querySelector<HTMLButtonElement>('button.remove'))?.focus();
  }

  /** Focus goes to the new rule's pattern, to be typed in. */
  private async addRule() {
    this.owners = [...this.owners, { pattern: '', owner: '' }];
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>(`#rule-${this.owners.length - 1}-pattern`)?.focus();
  }

  /** The row's ✕ leaves with it: focus goes to the ✕ now in its place, else the one above, else Add. */
  private async removeRule(i: number) {
    this.owners = this.owners.filter((_, j) => j !== i);
    this.ruleIssues = new Map();
    await this.updateComplete;
    const removes = this.renderRoot.querySelectorAll<HTMLButtonElement>('button.remove');
    (removes[i] ?? removes[i - 1] ?? this.renderRoot.querySelector<HTMLButtonElement>('button.add'))?.focus();
  }

  /** The rules checked by the schema the API applies: each field's problem beside it, focus on the first. */
  private checkRules(): v.InferOutput<typeof OwnerRulesSchema> | undefined {
    const parsed = v.safeParse(OwnerRulesSchema, { owners: this.owners });
    if (parsed.success) {
      this.ruleIssues = new Map();
      return parsed.output;
    }
    const issues = new Map<string, v.BaseIssue<unknown>>();
    for (const issue of parsed.issues) {
      const [, row, field] = (issue.path ?? []).map((item) => item.key);
      if (typeof row === 'number' && (field === 'pattern' || field === 'owner')) {
        if (!issues.has(fieldKey(row, field))) issues.set(fieldKey(row, field), issue);
      } else this.ownersStatus = (s) => (issue.type === 'max_length' ? format(s.tooManyOwnerRules, { n: String(issue.requirement) }) : issueText(issue, s));
    }
    this.ruleIssues = issues;
    void this.focusIssue();
    return undefined;
  }

  /** Focus on the table's first field with a problem, once shown. */
  private async focusIssue() {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('form [aria-invalid="true"]')?.focus();
  }

  private saveOwners(e: SubmitEvent) {
    e.preventDefault();
    void this.saving.run(() => this.sendOwners());
  }

  private async sendOwners() {
    this.ownersStatus = undefined;
    const rules = this.checkRules();
    if (!rules) return;
    try {
      const saved = await versioned('/v1/admin/owners', { method: 'PUT', json: rules, ifMatch: this.ownersEtag });
      this.ownersEtag = saved.etag ?? undefined;
      this.theirs = undefined;
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 412) return this.savedElsewhere();
      // Each rule field at fault is said beside it, the first taking focus; any other in the status line.
      const { said, status } = placed(
        err,
        this.owners.flatMap((_, i) => [fieldKey(i, 'pattern'), fieldKey(i, 'owner')]),
      );
      this.ownersStatus = status;
      this.ruleIssues = said;
      return this.focusIssue();
    }
    await this.refreshDocuments();
    this.ownersStatus = (s) => s.saved;
  }

  /**
   * Another admin saved since the rules were read: the edit stays, theirs are shown below it, and
   * saving again (knowingly) replaces them.
   */
  private async savedElsewhere() {
    this.ownersStatus = (s) => s.ownersSavedElsewhere;
    try {
      const latest = await versioned<{ owners: OwnerRule[] }>('/v1/admin/owners');
      this.theirs = latest.body.owners;
      this.ownersEtag = latest.etag ?? undefined;
    } catch (err) {
      // Not knowing what they saved, a save still refuses to replace it.
      this.ownersStatus = (s) => `${s.ownersSavedElsewhere} ${errorText(err, s)}`;
      return;
    }
    await this.refreshDocuments();
  }

  /** Owners are matched when read: the flagged documents show the rules now stored. */
  private async refreshDocuments() {
    try {
      const res = await api<{ documents: FlaggedDocument[] }>('/v1/admin/documents');
      this.documents = res.documents;
      this.error = undefined;
    } catch (err) {
      this.error = err;
    }
  }
}
