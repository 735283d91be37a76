/**
 * Picks a configured text (one string, or one per locale) for `locale`. Only prompts have such
 * texts: kept apart from the UI strings so that those load with the first render, and this with
 * the prompts.
 */
export function localized(text: string | Record<string, string>, locale: string): string {
  if (typeof text === 'string') return text;
  return text[locale] ?? text[locale.split('-')[0]!] ?? text.en ?? Object.values(text)[0] ?? '';
}
