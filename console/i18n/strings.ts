/**
 * The console's languages and how their words are loaded. A page's words are added in en.ts, whose
 * keys make the Strings type, and in zh-CN.ts, which the typecheck holds to the same keys. Each
 * language's file is fetched when it is first shown, so a reader loads the words of one language,
 * not both. `{name}` placeholders are filled by `format`.
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

/** Fills `{name}` placeholders; unknown ones are left as they are (one rule with the collector's English evidence lines). */
export { fillPlaceholders as format } from '../../shared/placeholders.ts';
