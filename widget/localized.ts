/**
 * The keys a text for `locale` is looked up under, best first, lower-cased (a language tag's case
 * means nothing: "zh-cn" is "zh-CN"): the locale, its language, "zh-cn" for any Chinese ("zh",
 * "zh-Hans-CN", "zh-SG"), then English. Traditional Chinese ("zh-TW", "zh-Hant") also gets the
 * "zh-CN" texts unless the page configures its own: there are no built-in traditional strings, and
 * its readers read Simplified more readily than English. Used for prompts and UI strings alike.
 */
export function localeKeys(locale: string) {
  const tag = locale.toLowerCase();
  const language = tag.split('-')[0];
  return [tag, language, language === 'zh' && 'zh-cn', 'en'];
}

/** What `texts` holds under `key` (one of `localeKeys`), whatever the case of its own key. */
export function at<T>(texts: unknown, key: unknown): T | undefined {
  for (const k in texts as object) if (k.toLowerCase() === key) return (texts as Record<string, T>)[k];
}

/**
 * Picks a configured text (one string, or one per locale) for `locale`: the first of its
 * `localeKeys` with one, else any; '' if there is none. Only prompts have such texts.
 */
export function localized(text: unknown, locale: string): string {
  // The page's config is plain JavaScript: a text that is not a string, or is empty, is missing.
  return ([text, ...localeKeys(locale).map((key) => at(text, key)), ...Object.values(Object(text))].find((t) => typeof t === 'string' && t) as string) ?? '';
}
