/**
 * Sentence embeddings as an optional feature family: the contract every embedding model meets,
 * so the reranker's features and the eval sets never depend on which library runs the model.
 */
export interface Embedder {
  /** Names the model; recorded in a reranker artifact so vectors of different models are never compared. */
  readonly id: string;
  /** One unit-length vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/**
 * The field of a model's config.json naming its weights (a hash, which the repo's model builders
 * write): the Node embedder puts it in its id, so a model built again under the same name from
 * another corpus is another embedder, and a reranker trained on the old vectors never gets new ones.
 */
export const WEIGHTS_FIELD = 'weights_sha256';

/**
 * Cosine similarity in [-1, 1]; 0 when either vector is all zeros. Vectors of different lengths
 * come from different models, so comparing them is a bug and throws.
 */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`cosine: vectors of different lengths (${a.length} and ${b.length}) come from different models`);
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  // A zero vector (a text with no known word) is like nothing; so is one a model made NaN.
  if (!(aa > 0) || !(bb > 0) || !Number.isFinite(dot)) return 0;
  // Rounding can carry a unit vector's self-similarity a hair past 1.
  return Math.max(-1, Math.min(1, dot / Math.sqrt(aa * bb)));
}

/**
 * An embedder's vector as the Float32Array its type promises: one written in JavaScript may answer
 * plain arrays of numbers, which a cache sized by `byteLength` cannot bound and whose arithmetic
 * would not round as every other vector's does. What is not a list throws, naming it.
 */
export function float32Vector(vector: unknown, what: string): Float32Array {
  if (vector instanceof Float32Array) return vector;
  if (Array.isArray(vector) || (ArrayBuffer.isView(vector) && !(vector instanceof DataView))) return Float32Array.from(vector as ArrayLike<number>);
  throw new TypeError(`${what} is not a list of numbers but ${vector === null ? 'null' : typeof vector}`);
}
