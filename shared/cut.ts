/** At most `max` UTF-16 units of `text`, never ending in half of a character (a pair the limit falls inside). */
export const cut = (text: string, max: number): string => text.slice(0, max).replace(/[\uD800-\uDBFF]$/, '');
