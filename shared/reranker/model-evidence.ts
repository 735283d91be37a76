/** The `Evidence` a trained model carries, indexed once per model for fast lookups. */
import type { Evidence, Remembered } from './features.ts';
import type { RerankerModel } from './model.ts';
import { unpackVector } from './vectors.ts';

const NONE: readonly [number, number] = [0, 0];
const EMPTY: readonly Remembered[] = [];

export function modelEvidence(model: RerankerModel): Evidence {
  const queries = model.memory.queries.map((q) => ({ terms: new Set(q.terms), vector: q.vector ? unpackVector(q.vector) : undefined }));
  const byChunk = new Map<string, Remembered[]>();
  const byDocument = new Map<string, Remembered[]>();
  for (const j of model.memory.judgements) {
    const q = queries[j.query];
    if (!q) continue;
    const entry: Remembered = { ...q, relevance: j.relevance };
    for (const [map, key] of [
      [byChunk, j.chunkId],
      [byDocument, j.sourceDocId],
    ] as const) {
      const list = map.get(key);
      if (list) list.push(entry);
      else map.set(key, [entry]);
    }
  }
  // Maps: lookups by id are the hot path of every feature row.
  const chunks = new Map(Object.entries(model.priors.chunks));
  const documents = new Map(Object.entries(model.priors.documents));
  const engagement = new Map(Object.entries(model.engagement.chunks));
  const documentEngagement = new Map(Object.entries(model.engagement.documents ?? {}));
  return {
    chunk: (id) => chunks.get(id) ?? NONE,
    document: (id) => documents.get(id) ?? NONE,
    engagement: (id) => engagement.get(id) ?? NONE,
    documentEngagement: (id) => documentEngagement.get(id) ?? NONE,
    baseRate: model.engagement.baseRate,
    remembered: (id) => byChunk.get(id) ?? EMPTY,
    rememberedOfDocument: (id) => byDocument.get(id) ?? EMPTY,
  };
}
