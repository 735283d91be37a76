import { describe, expect, it } from 'vitest';
import { localized } from './localized.ts';

describe('localized', () => {
  it('picks a configured text for a locale', () => {
    const text = { en: 'Having trouble?', 'zh-CN': '遇到困难了吗？' };
    expect(localized(text, 'zh-CN')).toBe('遇到困难了吗？');
    expect(localized(text, 'en-US')).toBe('Having trouble?');
    expect(localized(text, 'de')).toBe('Having trouble?');
    expect(localized('Plain', 'zh-CN')).toBe('Plain');
  });

  it('takes a text that is not a string, or is empty, as missing (the page may pass anything)', () => {
    expect(localized({ en: 5, 'zh-CN': '遇到困难了吗？' }, 'en')).toBe('遇到困难了吗？');
    expect(localized({ en: '', de: 'Probleme?' }, 'en-US')).toBe('Probleme?');
    for (const none of [{}, { en: 5 }, { en: null }, '', 5, null, undefined]) expect(localized(none, 'en')).toBe('');
  });
});
