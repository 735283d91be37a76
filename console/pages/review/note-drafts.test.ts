import { describe, expect, it } from 'vitest';
import { NoteDrafts } from './note-drafts.ts';

describe('NoteDrafts', () => {
  it('shows the saved note until the reviewer types, then their draft, even once the item holds another note', () => {
    const drafts = new NoteDrafts();
    expect(drafts.shown({ id: 'a', note: 'theirs' })).toBe('theirs');
    expect(drafts.differs({ id: 'a', note: 'theirs' })).toBe(false);
    drafts.typed('a', 'mine ');
    expect(drafts.shown({ id: 'a', note: 'theirs' })).toBe('mine ');
    expect(drafts.differs({ id: 'a', note: 'theirs' })).toBe(true);
    // While its answer is on its way the item holds the note as sent (trimmed): nothing differs.
    expect(drafts.differs({ id: 'a', note: 'mine' })).toBe(false);
    // A note emptied is a draft too.
    drafts.typed('b', '');
    expect(drafts.shown({ id: 'b', note: 'theirs' })).toBe('');
  });

  it('drops a draft once an answer carrying it is saved, not one typed on since', () => {
    const drafts = new NoteDrafts();
    drafts.typed('a', 'mine');
    drafts.saved('a', 'other');
    expect(drafts.shown({ id: 'a', note: null })).toBe('mine');
    drafts.saved('a', 'mine');
    expect(drafts.shown({ id: 'a', note: null })).toBe('');
    drafts.typed('b', '  ');
    drafts.saved('b', null);
    expect(drafts.shown({ id: 'b', note: 'x' })).toBe('x');
  });

  it('says whether some note holds words not yet saved, which closing the tab would lose', () => {
    const drafts = new NoteDrafts();
    expect(drafts.anyUnsaved()).toBe(false);
    drafts.typed('a', '   ');
    expect(drafts.anyUnsaved()).toBe(false);
    drafts.typed('b', 'mine');
    expect(drafts.anyUnsaved()).toBe(true);
    drafts.saved('b', 'mine');
    expect(drafts.anyUnsaved()).toBe(false);
  });
});
