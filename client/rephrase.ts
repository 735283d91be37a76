/**
 * Confirms the widget's rephrase pairs by meaning. In the browser a follow-up counts as a
 * rephrase when it shares enough characters with the question before it (shared/similarity.ts),
 * which also pairs questions that share words but ask different things ("cancel my order" /
 * "cancel my subscription"). Before such a pair feeds the eval sets' variant layer, where the
 * re-asked question inherits the first one's labels, an embedding model checks they mean the same.
 */
import { cosine, type Embedder } from '../shared/embedder.ts';

/**
 * Cosine at or above which two questions are the same question asked in other words: a
 * conventional starting point for duplicate-question detection with sentence-embedding models
 * like the default all-MiniLM-L6-v2. Set on the high side on purpose: a wrongly confirmed pair
 * copies labels onto a question they do not answer, while a missed one only leaves a variant out.
 * Calibrate it on a handful of labelled pairs when using another model.
 */
export const REPHRASE_MIN_COSINE = 0.7;

/**
 * One verdict per pair, in order: true when `b` asks what `a` asked. Throws, naming it, on a pair
 * side that is not a string, a `minCosine` outside [-1, 1], or an embedder that answers too few vectors.
 */
export async function confirmRephrases(
  embedder: Embedder,
  pairs: readonly { a: string; b: string }[],
  minCosine: number = REPHRASE_MIN_COSINE,
): Promise<boolean[]> {
  // A threshold outside cosine's range (70 meant as a percentage, NaN) would refuse every pair silently.
  if (typeof minCosine !== 'number' || !(minCosine >= -1 && minCosine <= 1)) {
    throw new RangeError(`minCosine must be a number from -1 to 1, not ${String(minCosine)}`);
  }
  if (!Array.isArray(pairs)) throw new TypeError(`pairs must be an array of { a, b }, not ${String(pairs)}`);
  for (const [i, pair] of pairs.entries()) {
    for (const side of ['a', 'b'] as const) {
      if (typeof pair?.[side] !== 'string') throw new TypeError(`pairs[${i}].${side} must be a string, not ${String(pair?.[side])}`);
    }
  }
  if (pairs.length === 0) return [];
  // One call for every text, so the embedder can batch them.
  const vectors = await embedder.embed(pairs.flatMap(({ a, b }) => [a, b]));
  if (vectors.length !== 2 * pairs.length) throw new Error(`embedder ${embedder.id} answered ${vectors.length} vectors for ${2 * pairs.length} texts`);
  return pairs.map((_, i) => cosine(vectors[2 * i]!, vectors[2 * i + 1]!) >= minCosine);
}
