import { describe, expect, it } from 'vitest';
import { DEFAULT_WIDGET_THRESHOLDS } from '../shared/schema/config-defaults.ts';
import { normalizeConfig } from './settings.ts';
import { BUILT_IN_STRINGS, stringsFor } from './strings.ts';

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
});

describe('normalizeConfig', () => {
  it('fills the defaults the collector fills, and lets the page override the server', () => {
    const server = normalizeConfig({ rating: true, thresholds: { rephraseSimilarity: 0.7 }, prompts: [{ id: 'p', trigger: 'rephrase', text: 'Hi' }] });
    expect(server.prompts[0]).toMatchObject({ maxPerSession: 1, maxPerDay: 3, choices: [{ id: 'yes' }, { id: 'no' }] });
    const merged = normalizeConfig({ thresholds: { bounceWindowMs: 1 } }, server);
    expect(merged.rating).toBe(true);
    expect(merged.thresholds).toEqual({ ...DEFAULT_WIDGET_THRESHOLDS, rephraseSimilarity: 0.7, bounceWindowMs: 1 });
    expect(merged.prompts).toHaveLength(1);
  });
});
