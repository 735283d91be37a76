/**
 * The embedding feature family for a run on a machine without a model hub: a model learnt from
 * the collection's corpus alone (scripts/embedding-models/corpus-model.ts, no queries and no
 * judgements), built into a temporary directory, behind one cache of vectors by text, because
 * the demo, retraining and the measurements embed the same chunks again and again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTransformersEmbedder } from '../../client/transformers-embedder.ts';
import { beirTexts, buildCorpusModel } from '../../scripts/embedding-models/corpus-model.ts';
import type { Embedder } from '../../shared/embedder.ts';

export interface CorpusEmbedder {
  embedder: Embedder;
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

/** `embedder` with every vector kept by its text: the same text is embedded once. */
export function cachedEmbedder(embedder: Embedder): Embedder {
  const vectors = new Map<string, Float32Array>();
  return {
    id: embedder.id,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !vectors.has(t)))];
      if (missing.length) {
        const fresh = await embedder.embed(missing);
        for (const [i, text] of missing.entries()) vectors.set(text, fresh[i]!);
      }
      return texts.map((t) => vectors.get(t)!);
    },
  };
}
