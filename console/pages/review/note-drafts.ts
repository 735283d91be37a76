import type { ReviewItem } from '../../api/types.ts';

type NoteOf = Pick<ReviewItem, 'id' | 'note'>;

/** A note as an answer carries it: trimmed, and none when empty. */
const asSent = (text: string) => text.trim() || null;

/**
 * What the reviewer typed in each item's note and has not had saved, for the page's life: shown
 * again whenever the item is, so an answer refused (another reviewer's answer brought back in its
 * place) or a failed save never takes away what they wrote.
 */
export class NoteDrafts {
  private readonly drafts = new Map<string, string>();

  typed(id: string, text: string): void {
    this.drafts.set(id, text);
  }

  /** What the note field shows for an item: the reviewer's draft, else the note the item holds. */
  shown(item: NoteOf): string {
    return this.drafts.get(item.id) ?? item.note ?? '';
  }

  /** Whether the field shows other words than the item's saved note, which is then shown beside it. */
  differs(item: NoteOf): boolean {
    const draft = this.drafts.get(item.id);
    return draft !== undefined && asSent(draft) !== item.note;
  }

  /** Whether some item's field holds words not yet saved (an emptied field may only undo a draft). */
  anyUnsaved(): boolean {
    for (const text of this.drafts.values()) if (asSent(text) !== null) return true;
    return false;
  }

  /** The item no longer exists (erased, purged): its draft can never be saved. */
  forget(id: string): void {
    this.drafts.delete(id);
  }

  /** An answer carrying `note` was saved: a draft that says the same is no longer one; one typed on since stays. */
  saved(id: string, note: string | null): void {
    const draft = this.drafts.get(id);
    if (draft !== undefined && asSent(draft) === note) this.drafts.delete(id);
  }
}
