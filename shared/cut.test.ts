import { describe, expect, it } from 'vitest';
import { cut, cutRedacted } from './cut.ts';

describe('cut', () => {
  it('keeps a text within its limit whole', () => {
    expect(cut('refund 😀', 9)).toBe('refund 😀');
  });

  it('cuts at the limit, and before a character the limit falls inside', () => {
    expect(cut('refund policy', 6)).toBe('refund');
    expect(cut('ab😀cd', 3)).toBe('ab');
    expect(cut('ab😀cd', 4)).toBe('ab😀');
  });
});

describe('cutRedacted', () => {
  it('cuts as cut does, and before a placeholder the limit falls inside', () => {
    expect(cutRedacted('mail [EMAIL] now', 16)).toBe('mail [EMAIL] now');
    expect(cutRedacted('mail [EMAIL] now', 12)).toBe('mail [EMAIL]');
    for (const max of [5, 6, 9, 11]) expect(cutRedacted('mail [EMAIL] now', max)).toBe('mail ');
    expect(cutRedacted('ab😀cd', 3)).toBe('ab');
  });

  it('keeps brackets that are no placeholder', () => {
    expect(cutRedacted('see [Note] and [A]', 8)).toBe('see [Not');
    expect(cutRedacted('a [B C]', 5)).toBe('a [B ');
  });
});
