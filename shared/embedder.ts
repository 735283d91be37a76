/** Turns texts into vectors; the reranker's embedding features need one, and nothing else does. */
export interface Embedder {
  /** Names the model; recorded in a reranker artifact so vectors of different models are never compared. */
  readonly id: string;
  /** One unit-length vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Cosine similarity of two vectors of the same length (the dot product, for unit vectors). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
