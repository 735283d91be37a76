/** The `Evidence` a trained model carries, indexed once per model for fast lookups. */
import type { Evidence, Remembered } from './features.ts';
import type { RerankerModel } from './model.ts';
import { unpackVector } from './vectors.ts';

const NONE: readonly [number, number] = [0, 0];

export function modelEvidence(model: RerankerModel): Evidence {
  const queries = model.memory.queries.map((q) => ({ terms: new Set(q.terms), vector: q.vector ? unpackVector(q.vector) : undefined }));
  const byChunk = new Map<string, Remembered[]>();
  const byDocument = new Map<string, Remembered[]>();
  for (const j of model.memory.judgements) {
    const q = queries[j.query];
    if (!q) continue;
    const entry: Remembered = { ...q, relevance: j.relevance };
    byChunk.set(j.chunkId, [...(byChunk.get(j.chunkId) ?? []), entry]);
    byDocument.set(j.sourceDocId, [...(byDocument.get(j.sourceDocId) ?? []), entry]);
  }
  return {
    chunk: (id) => model.priors.chunks[id] ?? NONE,
    document: (id) => model.priors.documents[id] ?? NONE,
    engagement: (id) => model.engagement.chunks[id] ?? NONE,
    baseRate: model.engagement.baseRate,
    remembered: (id) => byChunk.get(id) ?? [],
    rememberedOfDocument: (id) => byDocument.get(id) ?? [],
  };
}
