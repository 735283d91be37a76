/**
 * A text as words are compared: lower-cased, compatibility forms folded (full-width letters,
 * ligatures), and Turkish "İ", which lower-cases to "i" and a combining dot, read as "i", so
 * "İstanbul", "ISTANBUL" and "istanbul" are one word. Keeps the length of text without "İ"'s kind:
 * a position in the folded text is one in `text.normalize('NFKC')` when their lengths agree.
 */
export const fold = (text: string): string =>
  text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/i\u0307/g, 'i');
