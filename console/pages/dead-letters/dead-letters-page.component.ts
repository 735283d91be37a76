import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { DEAD_LETTERS_MAX_LIMIT } from '../../../shared/admin-api/dead-letters.ts';
import { api } from '../../api/client.ts';
import type { DeadLetter, DeadLetterReplay, DeadLetters } from '../../api/types.ts';
import type { Route } from '../../app/router.ts';
import { dateTime } from '../../i18n/locale.ts';
import { format, type Locale, type Strings } from '../../i18n/strings.ts';
import { AddressList } from '../../ui/address-list.ts';
import { baseStyles } from '../../ui/base.styles.ts';
import { errorText } from '../../ui/error-text.ts';
import { loadFailed } from '../../ui/load-failed.ts';
import { pageStyles } from '../../ui/page.styles.ts';
import type { Words } from '../../ui/words.ts';
import { previewOf } from './dead-letter-preview.ts';
import { styles } from './dead-letters-page.styles.ts';

/**
 * Queued events the consumer could not write (EVENTS_INGEST = "queue"), kept in D1 until an admin
 * replays them: each with when it was kept, its attempts, its last error and its first events;
 * Replay writes them again and says how it went. `/admin/dead-letters`, admin only: they hold
 * what users typed. As many as one replay takes are listed, in its order.
 */
export class DeadLettersPage extends LitElement {
  static override styles = [baseStyles, pageStyles, styles];
  static override properties: PropertyDeclarations = {
    strings: { attribute: false },
    locale: {},
    route: { attribute: false },
    replaying: { state: true },
    outcome: { state: true },
  };

  declare strings: Strings;
  declare locale: Locale;
  declare route: Route;
  /** While a replay, and the list read after it, are on their way. */
  declare replaying: boolean;
  /** What the last replay did, or why it failed. */
  declare outcome: { words: Words; failed: boolean } | undefined;
  private readonly list = new AddressList<DeadLetter, DeadLetters>(
    this,
    `/v1/admin/dead-letters?limit=${DEAD_LETTERS_MAX_LIMIT}`,
    [],
    (body) => body.deadLetters,
  );

  constructor() {
    super();
    this.replaying = false;
  }

  override render() {
    const s = this.strings;
    const outcome = this.outcome?.words(s) ?? '';
    return html`<h1 tabindex="-1">${s.deadLettersTitle}</h1>
      <p class="intro">${s.deadLettersIntro}</p>
      ${this.canReplay ? this.renderReplay() : nothing}
      <p class="outcome" role="status" tabindex="-1" data-field="replayed">${this.outcome?.failed ? '' : outcome}</p>
      <p class="error" role="alert">${this.list.error ? loadFailed(this.list.error, s, this, () => void this.list.load()) : this.outcome?.failed ? outcome : ''}</p>
      ${this.renderList()}`;
  }

  /** Replay stays while one is under way (the list reloads meanwhile), so the keyboard is not dropped. */
  private get canReplay(): boolean {
    return this.replaying || (this.list.body?.total ?? 0) > 0;
  }

  private renderReplay() {
    const s = this.strings;
    // aria-disabled, not disabled, which would drop the keyboard to the page's body.
    return html`<div class="replay">
      <button type="button" class="primary" aria-disabled=${this.replaying ? 'true' : 'false'} @click=${this.replay}>
        ${this.replaying ? s.replaying : s.replay}
      </button>
    </div>`;
  }

  private renderList() {
    const s = this.strings;
    const { items, body } = this.list;
    if (!items || !body) return this.list.error ? nothing : html`<p class="muted">${s.loading}</p>`;
    if (!items.length) {
      return html`<p class="card" data-field="no-dead-letters">${s.noDeadLetters}${body.ingest === 'direct' ? html` ${s.noDeadLettersDirect}` : nothing}</p>`;
    }
    return html`${body.total > items.length ? html`<p class="muted" data-field="shown">${format(s.deadLettersShown, { shown: items.length, total: body.total })}</p>` : nothing}
      <div class="scroll">
        <table class="dead-letters">
          <thead>
            <tr>
              <th scope="col">${s.deadLetterStored}</th><th scope="col">${s.deadLetterAttempts}</th><th scope="col">${s.deadLetterError}</th>
              <th scope="col">${s.deadLetterEvents}</th><th scope="col">${s.deadLetterPreview}</th>
            </tr>
          </thead>
          <tbody>
            ${items.map((d) => {
              const preview = previewOf(d.message);
              return html`<tr data-id=${d.id}>
                <td class="date">${dateTime(d.deadLetteredAt, this.locale)}<br /><span class="muted mono">${d.id}</span></td>
                <td>${d.attempts}</td>
                <td class="text error-text">${d.error}</td>
                <td>${d.message.rows.length}</td>
                <td>
                  <ul class="preview">
                    ${preview.lines.map((line) => html`<li class="text">${line}</li>`)}
                    ${preview.more ? html`<li class="muted">${format(s.deadLetterMore, { n: preview.more })}</li>` : nothing}
                  </ul>
                </td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>`;
  }

  /**
   * Writes them again, then reads the list again and says how it went, both at once. The
   * keyboard stays on Replay, or goes to what it did when nothing is left to replay.
   */
  private async replay() {
    if (this.replaying) return;
    this.replaying = true;
    this.outcome = undefined;
    let outcome: DeadLettersPage['outcome'];
    try {
      const r = await api<DeadLetterReplay>('/v1/admin/dead-letters/replay', { method: 'POST' });
      outcome = { words: (s) => format(s.replayed, { written: r.written.length, failed: r.failed.length, remaining: r.remaining }), failed: false };
    } catch (err) {
      outcome = { words: (s) => errorText(err, s), failed: true };
    }
    // A replay that failed may still have written some: the list is read again either way.
    await this.list.load();
    this.outcome = outcome;
    this.replaying = false;
    await this.updateComplete;
    const button = this.renderRoot.querySelector<HTMLElement>('.replay button');
    (button ?? this.renderRoot.querySelector<HTMLElement>(outcome.failed ? 'h1' : '.outcome'))?.focus();
  }
}
