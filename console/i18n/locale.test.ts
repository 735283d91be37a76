import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialLocale } from './locale.ts';

/** A browser whose storage holds `saved` as the language picked, reading `languages`. */
function browserWith(saved: string | null, languages: string[]) {
  vi.stubGlobal('localStorage', { getItem: () => saved });
  vi.stubGlobal('navigator', { languages });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('initialLocale', () => {
  it('takes the language picked before, else the browser’s', () => {
    browserWith('zh-CN', ['en-US']);
    expect(initialLocale()).toBe('zh-CN');
    browserWith(null, ['zh-TW', 'en']);
    expect(initialLocale()).toBe('zh-CN');
    browserWith(null, ['fr-FR']);
    expect(initialLocale()).toBe('en');
  });

  it('takes a stored name every object has (constructor, __proto__, toString) for no language', () => {
    for (const saved of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      browserWith(saved, ['zh-CN']);
      expect(initialLocale(), saved).toBe('zh-CN');
    }
  });
});
