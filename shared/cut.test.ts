import { describe, expect, it } from 'vitest';
import { cut } from './cut.ts';

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
