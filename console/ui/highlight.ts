import { termFold, terms, UNSPACED, WORD } from '../../shared/terms.ts';

export interface Segment {
  text: string;
  /** Part of a term the query shares. */
  hit: boolean;
}

/**
 * Splits `text` into runs, marking the words the query shares, by the same terms the loop
 * compares with (shared/terms.ts): whole words in spaced scripts, and in Chinese or Japanese the
 * characters of every bigram the query has. Joined back, the segments are `text` unchanged.
 */
export function highlightSegments(text: string, query: string): Segment[] {
  const wanted = new Set(terms(query));
  if (wanted.size === 0) return text ? [{ text, hit: false }] : [];
  const hits = new Array<boolean>(text.length).fill(false);
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    const start = m.index;
    if (UNSPACED.test(word)) {
      // Code units of each character, so surrogate pairs stay whole; a variation selector goes with
      // the character before it, as terms read the two as one.
      const chars: string[] = [];
      const from: number[] = [];
      const to: number[] = [];
      let at = start;
      for (const ch of word) {
        if (termFold(ch)) {
          chars.push(ch);
          from.push(at);
          to.push(at + ch.length);
        } else if (to.length) to[to.length - 1] = at + ch.length;
        at += ch.length;
      }
      const mark = (i: number) => hits.fill(true, from[i]!, to[i]!);
      if (chars.length === 1 && wanted.has(termFold(chars[0]!))) mark(0);
      for (let i = 0; i < chars.length - 1; i++) {
        if (wanted.has(termFold(chars[i]! + chars[i + 1]!))) {
          mark(i);
          mark(i + 1);
        }
      }
    } else {
      const term = termFold(word);
      // The query's terms hold no stop word of the text's language, or are stop words it keeps.
      if (wanted.has(term)) hits.fill(true, start, start + word.length);
    }
  }
  const out: Segment[] = [];
  for (let i = 0; i < text.length; ) {
    let j = i;
    while (j < text.length && hits[j] === hits[i]) j++;
    out.push({ text: text.slice(i, j), hit: hits[i]! });
    i = j;
  }
  return out;
}
