import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defaultWidgetConfig, WidgetConfigSchema } from '../../../shared/schema/config.ts';
import { fromDraft, toDraft } from './prompt-form.ts';

describe('the prompt settings draft', () => {
  it('round-trips a served config through the form unchanged', () => {
    const config = v.parse(WidgetConfigSchema, {
      rating: true,
      prompts: [
        { id: 'stuck', trigger: 'rephrase', text: { en: 'Stuck?', 'zh-CN': '遇到困难了吗？' }, maxPerDay: 5 },
        { id: 'copy', trigger: 'large_copy', text: 'Was this useful?' },
      ],
    });
    expect(v.parse(WidgetConfigSchema, fromDraft(toDraft(config)))).toEqual({
      ...config,
      prompts: [config.prompts[0], { ...config.prompts[1], text: { en: 'Was this useful?' } }],
    });
    expect(v.parse(WidgetConfigSchema, fromDraft(toDraft(defaultWidgetConfig())))).toEqual(defaultWidgetConfig());
  });

  it('keeps the texts of languages the form does not edit, and reads a Chinese or English one in any case', () => {
    const config = v.parse(WidgetConfigSchema, {
      prompts: [
        { id: 'stuck', trigger: 'rephrase', text: { en: 'Stuck?', ja: '困っていますか？', 'zh-TW': '遇到困難了嗎？' } },
        { id: 'lower', trigger: 'rephrase', text: { EN: 'Stuck?', 'zh-cn': '遇到困难了吗？' } },
        { id: 'german', trigger: 'large_copy', text: { de: 'Nützlich?' } },
      ],
    });
    const draft = toDraft(config);
    expect(draft.prompts.map((p) => [p.en, p.zh])).toEqual([
      ['Stuck?', ''],
      ['Stuck?', '遇到困难了吗？'],
      ['', ''],
    ]);
    draft.prompts[0]!.en = 'Still stuck?';
    const saved = v.parse(WidgetConfigSchema, fromDraft(draft));
    expect(saved.prompts.map((p) => p.text)).toEqual([
      { en: 'Still stuck?', ja: '困っていますか？', 'zh-TW': '遇到困難了嗎？' },
      { en: 'Stuck?', 'zh-CN': '遇到困难了吗？' },
      { de: 'Nützlich?' },
    ]);
  });

  it('leaves what the schema refuses for the schema to report', () => {
    const draft = toDraft(defaultWidgetConfig());
    draft.prompts.push({ id: '', trigger: 'rephrase', en: 'Hi', zh: '', maxPerSession: '1', maxPerDay: '3' });
    expect(v.safeParse(WidgetConfigSchema, fromDraft(draft)).success).toBe(false);
  });

  it('reads numbers as typed, and an empty or unfinished one as no number (never 0)', () => {
    const draft = toDraft(defaultWidgetConfig());
    draft.thresholds.rephraseSimilarity = '.75';
    draft.prompts.push({ id: 'p', trigger: 'rephrase', en: 'Hi', zh: '', maxPerSession: '1e1', maxPerDay: '' });
    const read = fromDraft(draft) as { thresholds: Record<string, number>; prompts: { maxPerSession: number; maxPerDay: number }[] };
    expect(read.thresholds.rephraseSimilarity).toBe(0.75);
    expect(read.prompts.at(-1)).toMatchObject({ maxPerSession: 10, maxPerDay: Number.NaN });
    expect(v.safeParse(WidgetConfigSchema, read).success).toBe(false);
  });
});
