import { describe, expect, it } from 'vitest';
import { BUILT_IN_STRINGS, stringsFor } from './strings.ts';

/** Overrides as a page in plain JavaScript might pass them. */
const malformed = (overrides: unknown) => overrides as Parameters<typeof stringsFor>[1];

describe('strings', () => {
  it('has every English string in Simplified Chinese', () => {
    expect(Object.keys(BUILT_IN_STRINGS['zh-CN']!).sort()).toEqual(Object.keys(BUILT_IN_STRINGS.en!).sort());
    for (const value of Object.values(BUILT_IN_STRINGS['zh-CN']!)) expect(value).toMatch(/[\u4e00-\u9fff]/);
  });

  it('falls back by language, then to English, and applies overrides per language and locale', () => {
    expect(stringsFor('zh-Hans-CN').thumbsUp).toBe('有帮助');
    expect(stringsFor('fr-FR').thumbsUp).toBe('Helpful');
    const s = stringsFor('en-GB', { en: { thumbsUp: 'Useful' }, 'en-GB': { thumbsDown: 'Not useful' } });
    expect([s.thumbsUp, s.thumbsDown, s.send]).toEqual(['Useful', 'Not useful', 'Send']);
  });

  it('leaves out an override that is not a string, and takes overrides that are not objects as none', () => {
    const s = stringsFor('en', malformed({ en: { thumbsUp: 5, thumbsDown: null, send: 'Go' } }));
    expect([s.thumbsUp, s.thumbsDown, s.send]).toEqual(['Helpful', 'Not helpful', 'Go']);
    for (const none of [null, 'strings', { en: 'Yes' }]) expect(stringsFor('en', malformed(none))).toEqual(BUILT_IN_STRINGS.en);
  });
});
