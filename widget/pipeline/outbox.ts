import { type DBSchema, type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction, openDB } from 'idb';
import type { FeedbackEvent } from '../../shared/schema/event.ts';
import { OPEN_TIMEOUT_MS, OUTBOX_CAP } from '../defaults.ts';
import type { Warn } from './warn.ts';

/** An event waiting to be delivered, with where it goes. */
export interface OutboxItem {
  /** The event id: time-ordered, so the store's key order is creation order. */
  id: string;
  endpoint: string;
  writeKey: string;
  event: FeedbackEvent;
}

interface OutboxSchema extends DBSchema {
  outbox: { key: string; value: OutboxItem };
  meta: { key: 'dropped'; value: number };
}

/**
 * The IndexedDB outbox: every event is written here before any network call, so nothing is lost
 * offline, on reload or when the tab closes. Shared by all tabs of the origin.
 */
export class Outbox {
  private db: Promise<IDBPDatabase<OutboxSchema>> | undefined;
  /** Rejects OPEN_TIMEOUT_MS after the connection was asked for. */
  private late: Promise<never> | undefined;
  /** Items enqueued this tick, written together: one transaction for a burst of events. */
  private buffer: OutboxItem[] = [];
  private writing: Promise<void> = Promise.resolve();
  /** Items IndexedDB could not take (storage blocked or full): delivered from memory while the page lives. */
  private unwritten: OutboxItem[] = [];
  /**
   * Events memory dropped for lack of room (the store that would count them is what failed); below 0, reported drops
   * the store still counts.
   */
  private lost = 0;

  constructor(
    private readonly name = 'rag-feedback',
    /** The page's cap, read at each write (the page may set it late): anything but a positive whole number keeps the default. */
    private readonly given: () => unknown,
    private readonly warn: Warn,
  ) {}

  /** Most events kept: a cap that is not a positive whole number would keep nothing, or count halves of events. */
  private cap(): number {
    const cap = this.given();
    return Number.isInteger(cap) && (cap as number) > 0 ? (cap as number) : OUTBOX_CAP;
  }

  /**
   * The connection, opened again on next use after it failed, was closed by the browser (storage
   * cleared) or gave way. An open that never finishes (the page holds its own connection to the
   * database it deletes, or WebKit hangs) would hold every write and read: past its time, the
   * outbox works from memory until the open is done.
   */
  private open() {
    const forget = () => (this.db = this.late = undefined);
    this.db ??= openDB<OutboxSchema>(this.name, 1, {
      upgrade(db) {
        db.createObjectStore('outbox', { keyPath: 'id' });
        db.createObjectStore('meta');
      },
      // The page deletes or upgrades the database (its own housekeeping, a sign-out): give way.
      blocking: () => {
        const open = this.db;
        forget();
        open?.then((db) => db.close(), forget);
      },
      terminated: forget,
    }).catch((err) => {
      forget();
      throw err;
    });
    return Promise.race([this.db, (this.late ??= new Promise<never>((_, reject) => setTimeout(reject, OPEN_TIMEOUT_MS, 'IndexedDB open timed out')))]);
  }

  /** Buffers an item; it is written with the others of this tick. */
  enqueue(item: OutboxItem): void {
    if (this.buffer.push(item) === 1) {
      this.writing = this.writing
        .then(() => new Promise<void>((resolve) => queueMicrotask(resolve)))
        .then(() => {
          const items = this.buffer;
          this.buffer = [];
          // A failed write must not stop later ones; its events wait in memory instead.
          return this.add(items).catch((err) => {
            const all = [...this.unwritten, ...items];
            this.unwritten = all.slice(-this.cap());
            this.lost += all.length - this.unwritten.length;
            this.warn('outbox write failed', err);
          });
        });
    }
  }

  /** Resolves once everything enqueued so far has been written (or failed to be). */
  settled(): Promise<void> {
    return this.writing;
  }

  /** A transaction writing both stores. */
  private async write() {
    return watched((await this.open()).transaction(['outbox', 'meta'], 'readwrite'));
  }

  /** Adds items in one transaction, dropping the oldest beyond the cap. */
  private async add(items: readonly OutboxItem[]): Promise<void> {
    const tx = await this.write();
    const store = tx.objectStore('outbox');
    const cap = this.cap();
    const overflow = (await store.count()) + items.length - cap;
    if (overflow > 0) {
      let cursor = await store.openCursor();
      for (let i = 0; i < overflow && cursor; i++) {
        await cursor.delete();
        cursor = await cursor.continue();
      }
      await countDropped(tx, overflow);
    }
    await Promise.all([...items.slice(-cap).map((item) => store.put(item)), tx.done]);
  }

  /** The oldest items, up to `limit`, passing over those `skip` names; then those only in memory. */
  async peek(limit: number, skip: (item: OutboxItem) => boolean): Promise<OutboxItem[]> {
    const items: OutboxItem[] = [];
    // None stored that can be read: memory's alone.
    await this.stored('outbox', async (store) => {
      for (let cursor = await store.openCursor(); cursor && items.length < limit; cursor = await cursor.continue())
        if (!skip(cursor.value)) items.push(cursor.value);
    });
    return [...items, ...this.unwritten.filter((i) => !skip(i))].slice(0, limit);
  }

  /**
   * Removes delivered items and subtracts the drops the collector was told about (`reported`), memory's first; what
   * the store could not subtract (it failed to open) stays owed in memory, so those drops are not reported again.
   */
  async remove(ids: readonly string[], reported = 0): Promise<void> {
    this.unwritten = this.unwritten.filter((i) => !ids.includes(i.id));
    const owed = Math.min(0, (this.lost -= reported));
    const tx = await this.write();
    await Promise.all([...ids.map((id) => tx.objectStore('outbox').delete(id)), owed && countDropped(tx, owed), tx.done]);
    this.lost -= owed;
  }

  /** Stored (none where IndexedDB cannot be read) and in memory. */
  async count(): Promise<number> {
    return ((await this.stored('outbox', (store) => store.count())) ?? 0) + this.unwritten.length;
  }

  /** Events dropped for lack of room and not yet reported: in memory, and stored (none where IndexedDB cannot be read), less what memory owes. */
  async dropped(): Promise<number> {
    return Math.max(0, this.lost + ((await this.stored('meta', (store) => store.get('dropped'))) ?? 0));
  }

  /** What `read` finds in a store; undefined where IndexedDB cannot be opened (its open may throw at once) or read. */
  private async stored<N extends 'outbox' | 'meta', T>(name: N, read: (store: IDBPObjectStore<OutboxSchema, [N], N>) => Promise<T>): Promise<T | undefined> {
    try {
      return await read(watched((await this.open()).transaction(name)).store);
    } catch {
      return undefined;
    }
  }
}

/**
 * The transaction, its end watched: one the browser aborts (site data cleared while it ran) would
 * otherwise reject its `done`, which idb makes for every transaction, into the page.
 */
function watched<T extends { done: Promise<void> }>(tx: T): T {
  tx.done.catch(() => {});
  return tx;
}

/** Adds `n` (less than 0: subtracts) to the stored count of dropped events, never below 0. */
async function countDropped(tx: IDBPTransaction<OutboxSchema, ('outbox' | 'meta')[], 'readwrite'>, n: number): Promise<void> {
  const meta = tx.objectStore('meta');
  await meta.put(Math.max(0, ((await meta.get('dropped')) ?? 0) + n), 'dropped');
}
