import type { WidgetConfig } from '../../../shared/schema/config.ts';

/**
 * One prompt as the form edits it: its text per built-in locale. Numbers are kept as typed, so a
 * field is never rewritten under the reader's fingers while it is not a number yet (".", "1e").
 */
export interface PromptDraft {
  id: string;
  trigger: string;
  en: string;
  zh: string;
  maxPerSession: string;
  maxPerDay: string;
  /** The texts in other languages (`ja`, `zh-TW`), kept as they were: the form edits English and Chinese alone. */
  others?: Record<string, string>;
  /** Kept as they were: the form does not edit the answers offered. */
  choices?: unknown;
  /** Just added, its text not yet typed: that it has none is not an error to show yet. */
  fresh?: true;
}

export interface ConfigDraft {
  rating: boolean;
  /** As typed, as a prompt's numbers are. */
  thresholds: Record<string, string>;
  prompts: PromptDraft[];
}

/** The locales the form edits, lower-cased: the widget reads a text's locale in any case ("zh-cn" is "zh-CN"). */
const EDITED = ['en', 'zh-cn'];

/** A prompt's text for a locale the form edits, whatever the case of its key. */
const textIn = (text: Record<string, string>, locale: string) => Object.entries(text).find(([k]) => k.toLowerCase() === locale)?.[1] ?? '';

/** The served config as the form edits it (a single text becomes the English one). */
export function toDraft(config: WidgetConfig): ConfigDraft {
  return {
    rating: config.rating,
    thresholds: Object.fromEntries(Object.entries(config.thresholds).map(([k, n]) => [k, String(n)])),
    prompts: config.prompts.map((p) => ({
      id: p.id,
      trigger: p.trigger,
      en: typeof p.text === 'string' ? p.text : textIn(p.text, 'en'),
      zh: typeof p.text === 'string' ? '' : textIn(p.text, 'zh-cn'),
      ...(typeof p.text !== 'string' && { others: Object.fromEntries(Object.entries(p.text).filter(([k]) => !EDITED.includes(k.toLowerCase()))) }),
      maxPerSession: String(p.maxPerSession),
      maxPerDay: String(p.maxPerDay),
      choices: p.choices,
    })),
  };
}

/** A number field's text as a number: an empty or unfinished one is NaN, for the schema to refuse (not 0). */
const numberOf = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));

/** The form's draft as PUT /v1/config takes it, for the shared schema to check. */
export function fromDraft(d: ConfigDraft): unknown {
  return {
    rating: d.rating,
    thresholds: Object.fromEntries(Object.entries(d.thresholds).map(([k, t]) => [k, numberOf(t)])),
    prompts: d.prompts.map((p) => {
      const text: Record<string, string> = {};
      if (p.en.trim()) text.en = p.en.trim();
      if (p.zh.trim()) text['zh-CN'] = p.zh.trim();
      Object.assign(text, p.others);
      return {
        id: p.id.trim(),
        trigger: p.trigger,
        text,
        maxPerSession: numberOf(p.maxPerSession),
        maxPerDay: numberOf(p.maxPerDay),
        ...(p.choices ? { choices: p.choices } : {}),
      };
    }),
  };
}
