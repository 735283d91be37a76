import { describe, expect, it } from 'vitest';
import { type Strings, stringsFor, VOTING_STRINGS } from './strings.ts';
import { POPOVER_STRINGS } from './ui/popover-strings.ts';

/** Every string for `locale`, the bar's and the popover's, as the element shows them. */
const allFor = (locale: string, overrides?: Record<string, Partial<Strings>>): Strings => ({
  ...stringsFor(locale, overrides, VOTING_STRINGS),
  ...stringsFor(locale, overrides, POPOVER_STRINGS),
});

/** Overrides as a page in plain JavaScript might pass them. */
const malformed = (overrides: unknown) => overrides as Record<string, Partial<Strings>>;

describe('strings', () => {
  it('has every English string in Simplified Chinese', () => {
    for (const builtIns of [VOTING_STRINGS, POPOVER_STRINGS]) {
      expect(Object.keys(builtIns['zh-cn']!).sort()).toEqual(Object.keys(builtIns.en).sort());
      for (const value of Object.values(builtIns['zh-cn']!)) expect(value).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it('keeps each string in one part only', () => {
    const voting = Object.keys(VOTING_STRINGS.en);
    expect(Object.keys(POPOVER_STRINGS.en).filter((key) => voting.includes(key))).toEqual([]);
  });

  it('falls back by language, then to English, and applies overrides per language and locale', () => {
    expect(allFor('zh-Hans-CN').thumbsUp).toBe('有帮助');
    expect(allFor('fr-FR').thumbsUp).toBe('Helpful');
    const s = allFor('en-GB', { en: { thumbsUp: 'Useful' }, 'en-GB': { thumbsDown: 'Not useful' } });
    expect([s.thumbsUp, s.thumbsDown, s.send]).toEqual(['Useful', 'Not useful', 'Send']);
    expect(allFor('fr-FR', { en: { thumbsUp: 'Useful' } }).thumbsUp).toBe('Useful'); // English shown, so its overrides too
  });

  it('takes any Chinese page, its tag in any case, as "zh-CN", with the page\'s own overrides over those', () => {
    for (const lang of ['zh', 'zh-cn', 'zh-Hans', 'zh-Hans-CN', 'zh-SG', 'zh-TW', 'zh-Hant']) {
      const s = allFor(lang, { en: { send: 'Go' }, 'zh-CN': { thumbsUp: '有用' } });
      expect([s.thumbsUp, s.thumbsDown, s.send]).toEqual(['有用', '没有帮助', '提交']);
    }
    expect(allFor('zh-tw', { 'zh-CN': { thumbsUp: '有用' }, 'zh-TW': { thumbsUp: '有幫助' } }).thumbsUp).toBe('有幫助');
    expect(allFor('EN-gb', { 'en-GB': { thumbsUp: 'Useful' } }).thumbsUp).toBe('Useful');
    // The language's overrides, with the locale's over them, on the most common Chinese page too.
    for (const lang of ['zh-CN', 'zh']) {
      const s = allFor(lang, { zh: { send: '发', thumbsUp: '有用' }, 'zh-CN': { thumbsUp: '好' } });
      expect([s.send, s.thumbsUp, s.thumbsDown]).toEqual(['发', lang === 'zh' ? '有用' : '好', '没有帮助']);
    }
  });

  it('leaves out an override that is not a string, and takes overrides that are not objects as none', () => {
    const s = allFor('en', malformed({ en: { thumbsUp: 5, thumbsDown: null, send: 'Go' } }));
    expect([s.thumbsUp, s.thumbsDown, s.send]).toEqual(['Helpful', 'Not helpful', 'Go']);
    for (const none of [null, 'strings', { en: 'Yes' }]) expect(allFor('en', malformed(none))).toEqual({ ...VOTING_STRINGS.en, ...POPOVER_STRINGS.en });
  });
});
