import type { ReviewItem, ReviewItemTrace, ReviewQueue, ReviewStatus, Verdict } from '../../api/types.ts';
import { type AnswerApi, AnswerLedger, type ItemState, itemGone } from './answer-ledger.ts';
import { placeOnList } from './list-place.ts';
import { UndoHistory } from './undo-history.ts';

/** What the session needs from the API: injected, so the logic is tested without a browser. */
export interface ReviewApi extends AnswerApi {
  /** `offset`: items of the list to pass over first. */
  queue(status: ReviewStatus, limit: number, offset?: number): Promise<ReviewQueue>;
  traces(id: string): Promise<ReviewItemTrace[]>;
}

/** Items fetched per request. */
export const PAGE_SIZE = 20;
/** The most GET /v1/admin/review lists at once. */
const MAX_LIMIT = 500;
/** When fewer unanswered items than this wait ahead, the next page is fetched. */
export const REFILL_AT = 5;
/** Items ahead whose traces are fetched before they are shown. */
export const TRACES_AHEAD = 2;

const TRAINING_VERDICTS: ReadonlySet<Verdict | null> = new Set(['relevant', 'not_relevant']);

/**
 * One reviewer's pass over one list of the queue: the items in order, where the reviewer is,
 * answers sent in the background while the next item shows at once, undo, and the items and
 * traces ahead fetched before they are asked for.
 */
export class ReviewSession {
  items: ReviewItem[] = [];
  index = 0;
  budget: ReviewQueue['budget'] | undefined;
  training: ReviewQueue['training'] | undefined;
  /** No more items to fetch for this status. */
  exhausted = false;
  /** The status of the item `load` was asked for when it has another one (answered since the link was made): its list shows it. */
  startsElsewhere: ReviewStatus | undefined;
  /** Why the item `load` was asked for could not be fetched (erased, a wrong link, no connection): the list starts at its first item instead. */
  linkFailed: unknown;
  /** Whether the first page has arrived: until then no key acts, undo included. */
  private loaded = false;
  private readonly traceCache = new Map<string, ReviewItemTrace[] | Promise<ReviewItemTrace[]>>();
  /** Items whose traces could not be fetched: asked for again only when the reviewer says so. */
  private readonly tracesFailed = new Set<string>();
  private refilling = false;
  /** Why the next page could not be fetched, until it is: past the last item loaded, the page says so instead of "nothing waiting". */
  refillError: unknown;

  constructor(
    private readonly api: ReviewApi,
    readonly status: ReviewStatus,
    /** Called whenever something shown changed. */
    private readonly changed: () => void,
    /** What the reviewer sent from the lists opened before this one (another status, back and forward). */
    private readonly ledger = new AnswerLedger(api),
    /** The answers to take back, given on this list and the ones opened before it. */
    private readonly history = new UndoHistory(),
  ) {}

  get current(): ReviewItem | undefined {
    return this.items[this.index];
  }

  /** The next page is on its way. */
  get fetchingMore(): boolean {
    return this.refilling;
  }

  /** Items of this list before the reviewer's place and still on it: past its end, those passed over (on the answered list, all). */
  get passed(): number {
    return this.items.slice(0, this.index).filter((i) => this.stillListed(i)).length;
  }

  /** Asks for the next page again after it failed (the page's Retry; moving asks again too). */
  retryRefill(): void {
    this.refillError = undefined;
    this.prefetch();
    this.changed();
  }

  get canUndo(): boolean {
    return this.loaded && this.history.canUndo;
  }

  /** The traces of an item, if fetched already (else undefined, and they are on their way unless fetching them failed). */
  tracesOf(id: string): ReviewItemTrace[] | undefined {
    const cached = this.traceCache.get(id);
    if (Array.isArray(cached)) return cached;
    if (!cached && !this.tracesFailed.has(id)) void this.fetchTraces(id);
    return undefined;
  }

  /** Whether the traces of an item could not be fetched (`retryTraces` asks again). */
  tracesFailedFor(id: string): boolean {
    return this.tracesFailed.has(id);
  }

  retryTraces(id: string): void {
    this.tracesFailed.delete(id);
    void this.fetchTraces(id);
    this.changed();
  }

  /**
   * The first page; `startAt` puts the reviewer on that item when it has this session's status,
   * shown first, before the page, when it is further down the list (a link to it, a reload).
   * Nothing is shown until both have arrived, so no key acts on an item not yet on screen.
   */
  async load(startAt?: string): Promise<void> {
    const asked = this.ledger.asking();
    const crossing = this.ledger.onTheirWay();
    const q = await this.api.queue(this.status, PAGE_SIZE);
    const items = [...q.items];
    let linked: ReviewItem | undefined;
    let linkedAsked = asked;
    if (startAt && !items.some((i) => i.id === startAt)) {
      linkedAsked = this.ledger.asking();
      linked = await this.api.item(startAt).catch((err) => {
        this.linkFailed = err;
        return undefined;
      });
      if (linked?.status === this.status) items.unshift(linked);
      else this.startsElsewhere = linked?.status;
    }
    this.items = items;
    this.budget = q.budget;
    this.training = q.training;
    for (const i of items) this.show(i, i === linked ? linkedAsked : asked);
    this.exhausted = q.items.length < PAGE_SIZE;
    this.addCrossing(crossing, asked);
    const at = startAt ? this.items.findIndex((i) => i.id === startAt) : -1;
    // Past the items shown answered already: answers of the reviewer on their way, or saved since the list was built.
    this.index = at >= 0 ? at : this.nextWaiting(-1);
    this.loaded = true;
    this.prefetch();
    this.changed();
  }

  /**
   * Adds the items whose answers were on their way as the list was asked for, and which those
   * answers put on it, where the server lists them: a list built before they landed leaves them
   * out (an item just answered on another list is the answered list's first; one taken back waits
   * again in its place). Each is shown as `show` shows an item, so one whose answer is not saved
   * comes back, the reviewer on it.
   */
  private addCrossing(crossing: { item: ReviewItem; held: ItemState }[], asked: number): void {
    for (const { item, held } of crossing) {
      if (this.items.some((i) => i.id === item.id)) continue;
      // As the list would have shown it: as the server held it before the answer.
      const added: ReviewItem = { ...structuredClone(item), ...held };
      const now = this.ledger.onItsWay(item.id)?.to ?? this.ledger.listed(added, asked);
      if (now.status !== this.status) continue;
      const at = placeOnList(this.items, { ...added, ...now }, this.status);
      // Past the items loaded: the next page brings it.
      if (at === this.items.length && !this.exhausted) continue;
      this.items.splice(at, 0, added);
      this.show(added, asked);
    }
  }

  /**
   * Answers the current item and moves to the next one of the list, at once; the answer is sent in
   * the background. A failed send puts the item back as it was (unless answered again since) and
   * rejects; an item that no longer exists leaves the list instead.
   */
  async answer(verdict: Verdict, note: string | null): Promise<void> {
    const item = this.current;
    if (!item) return;
    const before = { status: item.status, verdict: item.verdict, note: item.note };
    this.apply(item, { status: 'answered', verdict, note });
    this.history.push({ item, before });
    this.index = this.nextWaiting(this.index);
    this.prefetch();
    this.changed();
    try {
      await this.ledger.send(item, verdict, note);
    } catch (err) {
      // A later answer or undo for the item, sent after this one, decides what it is now.
      if (this.ledger.isSending(item.id)) throw err;
      // Answered meanwhile elsewhere: the item comes back with that answer, to keep or replace.
      const elsewhere = await this.ledger.elsewhere(item.id, err);
      this.apply(item, elsewhere ?? before);
      if (itemGone(err)) {
        this.drop(item);
        throw err;
      }
      // Answered meanwhile elsewhere, none of the reviewer's answers to it is left to take back:
      // an earlier one taken back would take back the answer given elsewhere.
      if (elsewhere) this.history.forget(item.id);
      else this.history.dropLast(item.id);
      this.index = this.items.indexOf(item);
      this.changed();
      throw err;
    }
  }

  /**
   * Takes the last answer back (the item as it was before) and returns to that item; given on
   * another list, the item is brought onto this one where the reviewer is.
   */
  async undo(): Promise<boolean> {
    const last = this.loaded ? this.history.pop() : undefined;
    if (!last) return false;
    const item = this.items.find((i) => i.id === last.item.id) ?? this.bringOver(last.item);
    const after = { status: item.status, verdict: item.verdict, note: item.note };
    // An item with no answer before (pending, or held) waits again as pending, which is what the
    // API makes of a taken-back answer; the nightly job re-holds it if it is still below the
    // threshold or past the week's budget.
    this.apply(item, last.before.verdict === null ? { ...last.before, status: 'pending' } : last.before);
    this.index = this.items.indexOf(item);
    this.changed();
    try {
      // Re-answering restores an earlier verdict; null puts a fresh item back in the queue.
      await this.ledger.send(item, last.before.verdict, last.before.note);
    } catch (err) {
      const elsewhere = await this.ledger.elsewhere(item.id, err);
      this.apply(item, elsewhere ?? after);
      if (itemGone(err)) {
        this.drop(item);
        throw err;
      }
      // Answered meanwhile elsewhere, there is no answer of the reviewer's left to take back.
      if (elsewhere) this.history.forget(item.id);
      else this.history.push({ item, before: last.before });
      this.changed();
      throw err;
    }
    return true;
  }

  /**
   * An item as a list brought it, asked for at `asked`: shown as the server holds it, as far as the
   * ledger knows, or, while the reviewer's answer to it is on its way, as that answer leaves it.
   * That answer not saved, the item comes back as a failed answer given on this list brings it.
   */
  private show(item: ReviewItem, asked: number): void {
    const held = this.ledger.listed(item, asked);
    const going = this.ledger.onItsWay(item.id);
    this.apply(item, going?.to ?? held);
    going?.sent.catch(async (err) => {
      // A later answer or undo for the item, sent after this one, decides what it is now.
      if (this.ledger.isSending(item.id)) return;
      this.apply(item, (await this.ledger.elsewhere(item.id, err)) ?? held);
      if (itemGone(err)) return this.drop(item);
      this.index = this.items.indexOf(item);
      this.changed();
    });
  }

  /**
   * An item that no longer exists (erased with its user, purged by retention): off the list for
   * good, with the answers to it to take back; the reviewer stays where they are, or, on it, goes
   * on to the next item, as an answer does.
   */
  private drop(item: ReviewItem): void {
    this.history.forget(item.id);
    const at = this.items.indexOf(item);
    if (at >= 0) {
      this.apply(item, null);
      this.items.splice(at, 1);
      if (at < this.index) this.index--;
      else if (at === this.index) this.index = this.nextWaiting(at - 1);
    }
    this.prefetch();
    this.changed();
  }

  /** An item answered on another list, put on this one where the reviewer is, as that list shows it. */
  private bringOver(answered: ReviewItem): ReviewItem {
    const item = structuredClone(answered);
    this.items.splice(this.index, 0, item);
    return item;
  }

  next(): void {
    // A key pressed while the first page loads would fetch that page a second time.
    if (!this.loaded) return;
    if (this.index < this.items.length) this.index++;
    this.prefetch();
    this.changed();
  }

  previous(): void {
    if (!this.loaded) return;
    if (this.index > 0) this.index--;
    this.prefetch();
    this.changed();
  }

  /** The next item after `from` still on this list (on the answered list, the next one), else the end of the list. */
  private nextWaiting(from: number): number {
    for (let i = from + 1; i < this.items.length; i++) if (this.stillListed(this.items[i]!)) return i;
    return this.items.length;
  }

  /** Keeps the budget's and training's counts in step with answers given and taken back in this session; `to` null: the item is gone. */
  private apply(item: ReviewItem, to: ItemState | null): void {
    if (this.budget) {
      const moved = (status: ReviewStatus) => Number(to?.status === status) - Number(item.status === status);
      this.budget.answeredLastWeek += moved('answered');
      this.budget.pending += moved('pending');
      this.budget.held += moved('held');
      // Counted under the reason the collector gave it as it was listed.
      if (item.heldFor) this.budget.heldFor[item.heldFor] += moved('held');
    }
    if (this.training) {
      const change = Number(TRAINING_VERDICTS.has(to?.verdict ?? null)) - Number(TRAINING_VERDICTS.has(item.verdict));
      this.training.confirmed += change;
      // As the server counts them: an answer on a held-out or curated question trains nothing.
      if (!item.heldOut && !item.curated) this.training.examples += change;
      this.training.ready = this.training.examples >= this.training.minimum && this.training.examples > this.training.trainedOn;
    }
    if (to) Object.assign(item, to);
  }

  /** The traces of the current item and the next ones, and the next page of any list when it runs low. */
  private prefetch(): void {
    // Before the first page there is nothing ahead to count; `load` prefetches once it has arrived.
    if (!this.loaded) return;
    for (const item of this.items.slice(this.index, this.index + 1 + TRACES_AHEAD)) this.tracesOf(item.id);
    const ahead = this.items.slice(this.index).filter((i) => this.stillListed(i)).length;
    if (ahead < REFILL_AT && !this.exhausted && !this.refilling) {
      this.refilling = true;
      void this.refill();
    }
  }

  /** Whether an item is still one of this list's: answered items leave the pending and held lists, the answered list keeps them all. */
  private stillListed(item: ReviewItem): boolean {
    return this.status === 'answered' || item.status !== 'answered';
  }

  /**
   * The head of the list, a page longer than what is loaded, less what is loaded: items answered
   * leave the pending and held lists on the server, and an answer changed moves its item to the
   * top of the answered list, so the head holds the next page either way. Past what one request
   * gives, the page after those still listed there, from a little before, less what is loaded.
   */
  /** How far past what is loaded pages are asked for: how much the list was found to have moved down. */
  private shift = 0;

  private async refill(): Promise<void> {
    try {
      const head = PAGE_SIZE + this.items.length <= MAX_LIMIT;
      const from = Math.max(0, this.items.filter((i) => this.stillListed(i)).length - PAGE_SIZE) + this.shift;
      const asked = this.ledger.asking();
      const limit = head ? PAGE_SIZE + this.items.length : PAGE_SIZE * 2;
      const q = await this.api.queue(this.status, limit, head ? undefined : from);
      const known = new Set(this.items.map((i) => i.id));
      const fresh = q.items.filter((i) => !known.has(i.id));
      this.items.push(...fresh);
      for (const i of fresh) this.show(i, asked);
      // Only a page shorter than asked for ends the list: one full of items already loaded (a list
      // reordered meanwhile) does not mean none follow.
      this.exhausted = q.items.length < limit;
      // Past the head, a full page of items already loaded: the list moved down under them (items
      // answered elsewhere went to its top). The next page is looked for further on.
      if (!head && fresh.length === 0 && !this.exhausted) this.shift += PAGE_SIZE;
      this.refillError = undefined;
    } catch (err) {
      // Tried again on the next move, or by the page's Retry.
      this.refillError = err;
    }
    // Done before the page is told, so it sees the page landed.
    this.refilling = false;
    this.changed();
  }

  private async fetchTraces(id: string): Promise<void> {
    const pending = this.api.traces(id);
    this.traceCache.set(id, pending);
    try {
      this.traceCache.set(id, await pending);
    } catch {
      this.traceCache.delete(id);
      this.tracesFailed.add(id);
    }
    this.changed();
  }
}
