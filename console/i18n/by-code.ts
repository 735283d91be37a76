/**
 * Sentences kept once by their code (shared/admin-api/) as the console's words: each under
 * `prefix` and its code, so English is the collector's own sentence and the Strings type holds
 * every other language to one word per code, whatever codes there are.
 */
export const byCode = <P extends string, C extends string>(prefix: P, sentences: Record<C, string>) =>
  Object.fromEntries(Object.entries(sentences).map(([code, sentence]) => [`${prefix}${code}`, sentence])) as Record<`${P}${C}`, string>;
