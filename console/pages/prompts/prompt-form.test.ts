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

  it('leaves what the schema refuses for the schema to report', () => {
    const draft = toDraft(defaultWidgetConfig());
    draft.prompts.push({ id: '', trigger: 'rephrase', en: 'Hi', zh: '', maxPerSession: 1, maxPerDay: 3 });
    expect(v.safeParse(WidgetConfigSchema, fromDraft(draft)).success).toBe(false);
  });
});
