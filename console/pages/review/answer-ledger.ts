import type { ReviewItem, Verdict } from '../../api/types.ts';

/** How the ledger sends an answer and reads an item: the review API's two calls it needs. */
export interface AnswerApi {
  /** `ifVerdict`: the verdict the answer was given against; another one found there is refused (`changedElsewhere`). */
  answer(id: string, verdict: Verdict | null, note: string | null, ifVerdict: Verdict | null): Promise<unknown>;
  item(id: string): Promise<ReviewItem>;
}

/** Whether an answer was refused because the item was answered meanwhile elsewhere (the API's 409). */
export const changedElsewhere = (err: unknown) => (err as { code?: unknown } | null)?.code === 'review_item_changed';

/** What an item holds, as the server said it. */
export type ItemState = Pick<ReviewItem, 'status' | 'verdict' | 'note'>;

/**
 * One reviewer's answers on their way and what the server said of each item they answered, kept
 * across the lists they open: a list fetched while an answer was still on its way shows the item
 * as it was, and an answer given there must still go after that one, against what it saved.
 */
export class AnswerLedger {
  /** Each item's last answer on its way: the next one for that item is sent after it, never before. */
  private readonly sending = new Map<string, Promise<unknown>>();
  /** Each item's verdict as the server last said it holds it: what an answer is given against. */
  private readonly saved = new Map<string, Verdict | null>();
  /**
   * Each item's answers whose fate is unknown (their request failed, but may have been carried
   * out, its response lost): found on the server, they are the reviewer's own, not another's.
   */
  private readonly unsure = new Map<string, Set<Verdict | null>>();
  /** Items the reviewer sent an answer for: what the server said to those answers is newer than any list. */
  private readonly answered = new Set<string>();
  /** Items found answered elsewhere while sending, as found: what `elsewhere` answers without asking again. */
  private readonly found = new Map<string, ItemState>();

  constructor(private readonly api: AnswerApi) {}

  /** An item as a list showed it. */
  listed(item: Pick<ReviewItem, 'id' | 'verdict'>): void {
    if (!this.answered.has(item.id)) this.saved.set(item.id, item.verdict);
  }

  /** Whether an answer for the item is on its way. */
  isSending(id: string): boolean {
    return this.sending.has(id);
  }

  /**
   * Sends an answer for an item after the ones already on their way for it (an undo pressed while
   * its answer is still being sent must not reach the server first, or the answer would win),
   * given against the verdict the server holds when it is sent: the one before, if that was saved.
   */
  send(id: string, verdict: Verdict | null, note: string | null): Promise<unknown> {
    this.answered.add(id);
    this.found.delete(id);
    const before = this.sending.get(id) ?? Promise.resolve();
    const sent = before.catch(() => undefined).then(() => this.sendAgainst(id, verdict, note, this.saved.get(id) ?? null, true));
    this.sending.set(id, sent);
    const forget = () => {
      if (this.sending.get(id) === sent) this.sending.delete(id);
    };
    sent.then(forget, forget);
    return sent;
  }

  /** The item as it is now when `err` says it was answered meanwhile elsewhere; else undefined. */
  async elsewhere(id: string, err: unknown): Promise<ItemState | undefined> {
    if (!changedElsewhere(err)) return undefined;
    const known = this.found.get(id);
    this.found.delete(id);
    return known ?? (await this.learn(id));
  }

  /**
   * Sends an answer given against `ifVerdict`. Refused because the item holds an answer of the
   * reviewer's own whose response was lost, it is sent again against that one (once).
   */
  private async sendAgainst(id: string, verdict: Verdict | null, note: string | null, ifVerdict: Verdict | null, again: boolean): Promise<unknown> {
    let answered: unknown;
    try {
      answered = await this.api.answer(id, verdict, note, ifVerdict);
    } catch (err) {
      const unsure = this.unsure.get(id);
      if (!changedElsewhere(err)) {
        // It may have been carried out all the same.
        if (unsure) unsure.add(verdict);
        else this.unsure.set(id, new Set([verdict]));
        throw err;
      }
      if (!again || !unsure) throw err;
      const now = await this.learn(id, unsure);
      if (!now || !unsure.has(now.verdict)) {
        if (now) this.found.set(id, now);
        throw err;
      }
      return this.sendAgainst(id, verdict, note, now.verdict, false);
    }
    this.saved.set(id, verdict);
    this.unsure.delete(id);
    return answered;
  }

  /**
   * Asks what the item holds now and records it; answers of the reviewer's whose fate was unknown
   * are known then, unless one of `keepUnsure` is what it holds (sent again against it).
   */
  private async learn(id: string, keepUnsure?: ReadonlySet<Verdict | null>): Promise<ItemState | undefined> {
    const now = await this.api.item(id).catch(() => undefined);
    if (!now) return undefined;
    this.saved.set(id, now.verdict);
    if (!keepUnsure?.has(now.verdict)) this.unsure.delete(id);
    return { status: now.status, verdict: now.verdict, note: now.note };
  }
}
