/**
 * Picks a configured text (one string, or one per locale) for `locale`: the locale's, its
 * language's, English, else any; '' if there is none. Only prompts have such texts.
 */
export function localized(text: unknown, locale: string): string {
  // The page's config is plain JavaScript: a text that is not a string, or is empty, is missing.
  const texts = Object(text);
  return [text, texts[locale], texts[locale.split('-')[0]!], texts.en, ...Object.values(texts)].find((t) => typeof t === 'string' && t) ?? '';
}
