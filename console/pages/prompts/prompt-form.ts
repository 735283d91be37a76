import type { WidgetConfig } from '../../../shared/schema/config.ts';

/** One prompt as the form edits it: its text per built-in locale. */
export interface PromptDraft {
  id: string;
  trigger: string;
  en: string;
  zh: string;
  maxPerSession: number;
  maxPerDay: number;
  /** Kept as they were: the form does not edit the answers offered. */
  choices?: unknown;
  /** Just added, its text not yet typed: that it has none is not an error to show yet. */
  fresh?: true;
}

export interface ConfigDraft {
  rating: boolean;
  thresholds: Record<string, number>;
  prompts: PromptDraft[];
}

/** The served config as the form edits it (a single text becomes the English one). */
export function toDraft(config: WidgetConfig): ConfigDraft {
  return {
    rating: config.rating,
    thresholds: { ...config.thresholds },
    prompts: config.prompts.map((p) => ({
      id: p.id,
      trigger: p.trigger,
      en: typeof p.text === 'string' ? p.text : (p.text.en ?? ''),
      zh: typeof p.text === 'string' ? '' : (p.text['zh-CN'] ?? ''),
      maxPerSession: p.maxPerSession,
      maxPerDay: p.maxPerDay,
      choices: p.choices,
    })),
  };
}

/** The form's draft as PUT /v1/config takes it, for the shared schema to check. */
export function fromDraft(d: ConfigDraft): unknown {
  return {
    rating: d.rating,
    thresholds: d.thresholds,
    prompts: d.prompts.map((p) => {
      const text: Record<string, string> = {};
      if (p.en.trim()) text.en = p.en.trim();
      if (p.zh.trim()) text['zh-CN'] = p.zh.trim();
      return {
        id: p.id.trim(),
        trigger: p.trigger,
        text,
        maxPerSession: p.maxPerSession,
        maxPerDay: p.maxPerDay,
        ...(p.choices ? { choices: p.choices } : {}),
      };
    }),
  };
}
