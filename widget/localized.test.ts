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

  it('picks the "zh-CN" text for any Chinese page, its tag in any case, unless a text for the page\'s own is configured', () => {
    const text = { en: 'Having trouble?', 'zh-CN': '遇到困难了吗？' };
    for (const lang of ['zh', 'zh-cn', 'ZH-CN', 'zh-Hans', 'zh-Hans-CN', 'zh-SG', 'zh-TW', 'zh-Hant']) expect(localized(text, lang)).toBe('遇到困难了吗？');
    expect(localized({ ...text, 'zh-TW': '遇到困難了嗎？' }, 'zh-tw')).toBe('遇到困難了嗎？');
    expect(localized({ ...text, de: 'Probleme?' }, 'DE-at')).toBe('Probleme?');
  });

  it('takes a text that is not a string, or is empty, as missing (the page may pass anything)', () => {
    expect(localized({ en: 5, 'zh-CN': '遇到困难了吗？' }, 'en')).toBe('遇到困难了吗？');
    expect(localized({ en: '', de: 'Probleme?' }, 'en-US')).toBe('Probleme?');
    for (const none of [{}, { en: 5 }, { en: null }, '', 5, null, undefined]) expect(localized(none, 'en')).toBe('');
  });
});
