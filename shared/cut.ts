/** At most `max` UTF-16 units of `text`, never ending in half of a character (a pair the limit falls inside). */
export const cut = (text: string, max: number): string => text.slice(0, max).replace(/[\uD800-\uDBFF]$/, '');

/**
 * A redacted text cut as `cut` does, never ending in part of a placeholder: the one the limit falls
 * inside ("[EMA" of "[EMAIL]") goes whole, as a half would read as something typed.
 */
export const cutRedacted = (text: string, max: number): string => {
  const head = cut(text, max);
  return /^[A-Z_]*\]/.test(text.slice(head.length)) ? head.replace(/\[[A-Z_]*$/, '') : head;
};
