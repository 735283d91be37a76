import type { ReviewItem, Verdict } from '../../api/types.ts';

/** How the ledger sends an answer and reads an item: the review API's two calls it needs. */
export interface AnswerApi {
  /** `ifVerdict`: the verdict the answer was given against; another one found there is refused (`changedElsewhere`). */
  answer(id: string, verdict: Verdict | null, note: string | null, ifVerdict: Verdict | null): Promise<unknown>;
  item(id: string): Promise<ReviewItem>;
}

/** Whether an answer was refused because the item was answered meanwhile elsewhere (the API's 409). */
export const changedElsewhere = (err: unknown) => (err as { code?: unknown } | null)?.code === 'review_item_changed';

/**
 * Whether an answer was refused because the item no longer exists (erased with its user, or purged
 * by retention): the API's 404 `item_not_found`. Any other 404 (a wrong route, a proxy) is a failure like others.
 */
export const itemGone = (err: unknown) => {
  const e = err as { status?: unknown; code?: unknown } | null;
  return e?.status === 404 && e.code === 'item_not_found';
};

/** What an item holds, as the server said it. */
export type ItemState = Pick<ReviewItem, 'status' | 'verdict' | 'note'>;

/** What an answer leaves an item holding, as the API makes of it: taken back (no verdict), it waits again, with no note. */
export const answeredAs = (verdict: Verdict | null, note: string | null): ItemState =>
  verdict === null ? { status: 'pending', verdict, note: null } : { status: 'answered', verdict, note };

/**
 * One reviewer's answers on their way and what the server said of each item, kept across the lists
 * they open: a list fetched while an answer was still on its way, or built before one landed, shows
 * the item as it was, so the ledger says what to show of it instead (`listed`, `onItsWay`), or
 * leaves it out, so the ledger names it (`onTheirWay`); and an answer given there must still go
 * after that one, against what it saved.
 */
export class AnswerLedger {
  /**
   * Each item's last answer on its way, what it leaves the item holding, and the item as it was
   * answered: the next one for that item is sent after it, never before.
   */
  private readonly sending = new Map<string, { sent: Promise<unknown>; to: ItemState; item: ReviewItem }>();
  /**
   * Each item as the server last said it holds it, and when the ledger heard it (`asking`'s
   * clock): what an answer is given against, and what a list asked for before then may be older than.
   */
  private readonly saved = new Map<string, { held: ItemState; at: number }>();
  /**
   * Each item's answers whose fate is unknown (their request failed, but may have been carried
   * out, its response lost): found on the server, they are the reviewer's own, not another's.
   */
  private readonly unsure = new Map<string, Set<Verdict | null>>();
  /** Items found answered elsewhere while sending, as found: what `elsewhere` answers without asking again. */
  private readonly found = new Map<string, ItemState>();
  /** Counts what the ledger heard from the server and the lists asked for, in the order they happened. */
  private clock = 0;

  constructor(private readonly api: AnswerApi) {}

  /** To be called as a list is asked for; what it returns is given to `listed` with the list's items. */
  asking(): number {
    return ++this.clock;
  }

  /**
   * An item as a list asked for at `asked` showed it, and what the server holds, as far as the
   * ledger knows: what the list says, unless the ledger heard otherwise since the list was asked
   * for (an answer saved while it was on its way: the list may have been built before it landed).
   */
  listed(item: Pick<ReviewItem, 'id' | 'status' | 'verdict' | 'note'>, asked: number): ItemState {
    const known = this.saved.get(item.id);
    if (known && known.at > asked) return known.held;
    const held = { status: item.status, verdict: item.verdict, note: item.note };
    this.saved.set(item.id, { held, at: asked });
    return held;
  }

  /** The reviewer's last answer for an item while it is on its way: what it leaves the item holding, and its sending, which rejects if it is not saved. */
  onItsWay(id: string): { sent: Promise<unknown>; to: ItemState } | undefined {
    return this.sending.get(id);
  }

  /**
   * The items whose answers are on their way, each with what the server held before them, as last
   * heard: a list asked for now may be built before they land, and so leave an item out of the
   * list that answer puts it on, or show it on the one it leaves.
   */
  onTheirWay(): { item: ReviewItem; held: ItemState }[] {
    return [...this.sending.values()].flatMap(({ item }) => {
      const known = this.saved.get(item.id);
      return known ? [{ item, held: known.held }] : [];
    });
  }

  /** Whether an answer for the item is on its way. */
  isSending(id: string): boolean {
    return this.sending.has(id);
  }

  /** Whether any answer is on its way. */
  anySending(): boolean {
    return this.sending.size > 0;
  }

  /**
   * Sends an answer for an item after the ones already on their way for it (an undo pressed while
   * its answer is still being sent must not reach the server first, or the answer would win),
   * given against the verdict the server holds when it is sent: the one before, if that was saved.
   */
  send(item: ReviewItem, verdict: Verdict | null, note: string | null): Promise<unknown> {
    const { id } = item;
    this.found.delete(id);
    const before = this.sending.get(id)?.sent ?? Promise.resolve();
    const sent = before.catch(() => undefined).then(() => this.sendAgainst(id, verdict, note, this.saved.get(id)?.held.verdict ?? null, true));
    this.sending.set(id, { sent, to: answeredAs(verdict, note), item });
    const forget = () => {
      if (this.sending.get(id)?.sent === sent) this.sending.delete(id);
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
    this.heard(id, answeredAs(verdict, note));
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
    this.heard(id, { status: now.status, verdict: now.verdict, note: now.note });
    if (!keepUnsure?.has(now.verdict)) this.unsure.delete(id);
    return this.saved.get(id)!.held;
  }

  /** What the server said an item holds, just now: newer than any list asked for before. */
  private heard(id: string, held: ItemState): void {
    this.saved.set(id, { held, at: ++this.clock });
  }
}
