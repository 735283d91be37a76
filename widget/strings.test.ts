import { describe, expect, it } from 'vitest';
import { BUILT_IN_STRINGS, stringsFor } from './strings.ts';

/** Overrides as a page in plain JavaScript might pass them. */
const malformed = (overrides: unknown) => overrides as Parameters<typeof stringsFor>[1];

describe('strings', () => {
  it('has every English string in Simplified Chinese', () => {
    expect(Object.keys(BUILT_IN_STRINGS['zh-cn']!).sort()).toEqual(Object.keys(BUILT_IN_STRINGS.en!).sort());
    for (const value of Object.values(BUILT_IN_STRINGS['zh-cn']!)) expect(value).toMatch(/[\u4e00-\u9fff]/);
  });

  it('falls back by language, then to English, and applies overrides per language and locale', () => {
    expect(stringsFor('zh-Hans-CN').thumbsUp).toBe('有帮助');
    expect(stringsFor('fr-FR').thumbsUp).toBe('Helpful');
    const s = stringsFor('en-GB', { en: { thumbsUp: 'Useful' }, 'en-GB': { thumbsDown: 'Not useful' } });
    expect([s.thumbsUp, s.thumbsDown, s.send]).toEqual(['Useful', 'Not useful', 'Send']);
    expect(stringsFor('fr-FR', { en: { thumbsUp: 'Useful' } }).thumbsUp).toBe('Useful'); // English shown, so its overrides too
  });

  it('takes any Chinese page, its tag in any case, as "zh-CN", with the page\'s own overrides over those', () => {
    for (const lang of ['zh', 'zh-cn', 'zh-Hans', 'zh-Hans-CN', 'zh-SG', 'zh-TW', 'zh-Hant']) {
      const s = stringsFor(lang, { en: { send: 'Go' }, 'zh-CN': { thumbsUp: '有用' } });
      expect([s.thumbsUp, s.thumbsDown, s.send]).toEqual(['有用', '没有帮助', '提交']);
    }
    expect(stringsFor('zh-tw', { 'zh-CN': { thumbsUp: '有用' }, 'zh-TW': { thumbsUp: '有幫助' } }).thumbsUp).toBe('有幫助');
    expect(stringsFor('EN-gb', { 'en-GB': { thumbsUp: 'Useful' } }).thumbsUp).toBe('Useful');
    // The language's overrides, with the locale's over them, on the most common Chinese page too.
    for (const lang of ['zh-CN', 'zh']) {
      const s = stringsFor(lang, { zh: { send: '发', thumbsUp: '有用' }, 'zh-CN': { thumbsUp: '好' } });
      expect([s.send, s.thumbsUp, s.thumbsDown]).toEqual(['发', lang === 'zh' ? '有用' : '好', '没有帮助']);
    }
  });

  it('leaves out an override that is not a string, and takes overrides that are not objects as none', () => {
    const s = stringsFor('en', malformed({ en: { thumbsUp: 5, thumbsDown: null, send: 'Go' } }));
    expect([s.thumbsUp, s.thumbsDown, s.send]).toEqual(['Helpful', 'Not helpful', 'Go']);
    for (const none of [null, 'strings', { en: 'Yes' }]) expect(stringsFor('en', malformed(none))).toEqual(BUILT_IN_STRINGS.en);
  });
});
