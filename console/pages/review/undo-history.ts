import type { ReviewItem } from '../../api/types.ts';
import type { ItemState } from './answer-ledger.ts';

/** One answer the reviewer may take back: the item it was given to, and what the item held before. */
export interface UndoEntry {
  item: ReviewItem;
  before: ItemState;
}

/**
 * The reviewer's answers to take back, last first, kept across the lists they open (a filter
 * changed, back and forward): `u` takes back the last answer given, whichever list it was given on.
 */
export class UndoHistory {
  private readonly entries: UndoEntry[] = [];

  get canUndo(): boolean {
    return this.entries.length > 0;
  }

  push(entry: UndoEntry): void {
    this.entries.push(entry);
  }

  pop(): UndoEntry | undefined {
    return this.entries.pop();
  }

  /** Drops the last answer to an item (it was not saved: there is nothing to take back). */
  dropLast(id: string): void {
    const i = this.entries.findLastIndex((e) => e.item.id === id);
    if (i >= 0) this.entries.splice(i, 1);
  }

  /** Drops every answer to an item (answered meanwhile elsewhere: taking one back would take back that answer). */
  forget(id: string): void {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i]!.item.id === id) this.entries.splice(i, 1);
  }
}
