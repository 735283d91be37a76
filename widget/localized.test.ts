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
});
