/**
 * The embedding feature family for a run on a machine without a model hub: a model learnt from
 * the collection's corpus alone (scripts/embedding-models/corpus-model.ts, no queries and no
 * judgements), built into a temporary directory, with the corpus's vectors kept for the run and
 * others in a bounded cache, by text, because the demo, retraining and the measurements embed the
 * same chunks again and again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkVectorCache } from '../../client/reranker.ts';
import { createTransformersEmbedder } from '../../client/transformers-embedder.ts';
import { beirTexts, buildCorpusModel } from '../../scripts/embedding-models/corpus-model.ts';
import type { Embedder } from '../../shared/embedder.ts';

export interface CorpusEmbedder {
  embedder: KeepingEmbedder;
  /** Seconds the model took to build. */
  buildSeconds: number;
  close(): Promise<void>;
}

export async function corpusEmbedder(dataDir: string): Promise<CorpusEmbedder> {
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'rf-corpus-model-'));
  const built = await buildCorpusModel(dir, await beirTexts(dataDir)).catch(async (error: unknown) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  const { modelId, localModelPath } = built;
  const buildSeconds = (Date.now() - started) / 1000;
  // One table for all rows: the int8 copy would blur the smaller components.
  const model = createTransformersEmbedder({ model: modelId, localModelPath, quantized: false });
  return { embedder: cachedEmbedder(model), buildSeconds, close: () => rm(dir, { recursive: true, force: true }) };
}

/** An embedder that can be told the corpus, whose vectors it then keeps for the whole run. */
export interface KeepingEmbedder extends Embedder {
  /**
   * Embeds `texts` and keeps their vectors, outside the bounded cache: the corpus's passages,
   * which the demo, retraining and the measurements come back to all run long. Four bytes a
   * dimension for each distinct passage (51 MB for 50,000 of 256), with the passage's text as its
   * key; within the cache's bounds, a corpus past 20,000 passages (or fewer, by bytes) would be
   * embedded again every week.
   */
  keep(texts: readonly string[]): Promise<void>;
}

/**
 * `embedder` with its vectors kept by their texts, the same text embedded once while it is kept:
 * the corpus's as long as the run (`keep`), any other within the bounds of the client's chunk
 * vectors, so queries do not grow memory without end. One let go is embedded again, to the same vector.
 */
export function cachedEmbedder(embedder: Embedder): KeepingEmbedder {
  const kept = new Map<string, Float32Array>();
  const vectors = chunkVectorCache<string>();
  const lookUp = (t: string) => kept.get(t) ?? vectors.get(t)?.vector;
  return {
    id: embedder.id,
    async keep(texts) {
      const missing = [...new Set(texts.filter((t) => !kept.has(t)))];
      if (!missing.length) return;
      const embedded = await embedder.embed(missing);
      for (const [i, text] of missing.entries()) kept.set(text, embedded[i]!);
    },
    async embed(texts) {
      // Taken from the cache now: this call's own texts, or a call running meanwhile, may evict them.
      const known = texts.map(lookUp);
      const missing = [...new Set(texts.filter((_, i) => !known[i]))];
      const fresh = new Map<string, Float32Array>();
      if (missing.length) {
        const embedded = await embedder.embed(missing);
        for (const [i, text] of missing.entries()) {
          fresh.set(text, embedded[i]!);
          vectors.set(text, { text, vector: embedded[i]! });
        }
      }
      return texts.map((t, i) => known[i] ?? fresh.get(t)!);
    },
  };
}
