import { fold } from './fold.ts';

/**
 * Lexical similarity of two queries, for rephrase detection in the browser, where an embedding
 * model is too heavy. Sørensen–Dice over character bigrams of the normalised text: it needs no
 * tokenizer, so it works for Chinese as well as English, and it tolerates typos and reordering.
 */
export function querySimilarity(a: string, b: string): number {
  const x = bigrams(a);
  const y = bigrams(b);
  if (x.size === 0 && y.size === 0) return a.trim() === b.trim() ? 1 : 0;
  let overlap = 0;
  let total = 0;
  for (const [gram, n] of x) {
    overlap += Math.min(n, y.get(gram) ?? 0);
    total += n;
  }
  for (const n of y.values()) total += n;
  return total === 0 ? 0 : (2 * overlap) / total;
}

/** Folded letters, digits and their combining marks only (any script), spaces collapsed, as bigram counts. */
function bigrams(text: string): Map<string, number> {
  const norm = fold(text)
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ')
    .trim();
  const grams = new Map<string, number>();
  const chars = [...norm];
  for (let i = 0; i < chars.length - 1; i++) {
    const g = chars[i]! + chars[i + 1]!;
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}
