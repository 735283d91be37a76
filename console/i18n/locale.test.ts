import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialLocale, percent } from './locale.ts';

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

describe('percent', () => {
  it('rounds a share to whole percent, but says one that is neither none nor all is not 0% or 100%', () => {
    expect([0, 0.004, 0.005, 0.5, 0.994, 0.996, 1].map(percent)).toEqual(['0%', '<1%', '1%', '50%', '99%', '>99%', '100%']);
  });
});
