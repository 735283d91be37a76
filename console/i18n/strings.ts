/**
 * Every string the console shows, in English (en.ts) and Simplified Chinese (zh-CN.ts): the one
 * place to add a page's words. Each language's file is fetched when it is first shown, so a reader
 * loads the words of one language, not both. `{name}` placeholders are filled by `format`.
 */
import type { Strings } from './en.ts';

export type { Strings };
export type StringKey = keyof Strings;

/** Each language's strings, fetched the first time it is asked for. */
export const LOCALES = {
  en: () => import('./en.ts').then((m) => m.en),
  'zh-CN': () => import('./zh-CN.ts').then((m) => m.zhCN),
} satisfies Record<string, () => Promise<Strings>>;
export type Locale = keyof typeof LOCALES;
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

/** Fills `{name}` placeholders; unknown ones are left as they are. */
export const format = (text: string, values: Record<string, string | number> = {}): string =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
