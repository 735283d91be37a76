/**
 * Words kept by code (the collector's sentences in shared/admin-api/, the signal types' names) as
 * the console's: each under `prefix` and its code, so the Strings type holds every other language
 * to one word per code, whatever codes there are.
 */
export const byCode = <P extends string, C extends string>(prefix: P, sentences: Record<C, string>) =>
  Object.fromEntries(Object.entries(sentences).map(([code, sentence]) => [`${prefix}${code}`, sentence])) as Record<`${P}${C}`, string>;
