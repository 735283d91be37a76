import { LOCALES, type Locale } from './strings.ts';

const STORE = 'rf-console-locale';

/** One of LOCALES' own keys: `in` would take what every object inherits ('constructor', '__proto__') for a language too. */
const isLocale = (x: string | null): x is Locale => x !== null && Object.hasOwn(LOCALES, x);

/** The chosen language: the one picked before in this browser, else the browser's own (Chinese → zh-CN), else English. */
export function initialLocale(): Locale {
  const saved = safeGet(STORE);
  if (isLocale(saved)) return saved;
  return navigator.languages.some((l) => l.toLowerCase().startsWith('zh')) ? 'zh-CN' : 'en';
}

/** The language picked, kept for the next visit. */
export function saveLocale(locale: Locale): void {
  safeSet(STORE, locale);
}

/** A rank as words read it: "5th" in English, "5" where the sentence carries the ordinal ("第 5 位"). */
export function ordinal(n: number, locale: Locale): string {
  if (locale !== 'en') return String(n);
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A share as a percentage, "92%": one that is neither none nor all is not rounded to either ("<1%", ">99%"). */
export const percent = (x: number) => (x > 0 && x < 0.005 ? '<1%' : x < 1 && x >= 0.995 ? '>99%' : `${Math.round(x * 100)}%`);

/** A time as the reader's locale writes it. */
export const dateTime = (ms: number, locale: Locale) => new Date(ms).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' });

// Storage can be off (privacy settings); preferences then last for the page only.
function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function safeSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // kept for this page only
  }
}

export { safeGet as readPreference, safeSet as writePreference };
