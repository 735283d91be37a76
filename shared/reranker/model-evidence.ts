/** The `Evidence` a trained model carries, indexed once per model for fast lookups. */
import { type Evidence, NO_COUNTS, type Remembered } from './features.ts';
import type { RerankerModel } from './model.ts';
import { unpackVector } from './vectors.ts';

/** All a model holds of one chunk, or of one document: its prior, its engagement and the judged queries about it. */
interface Held {
  prior: readonly [number, number];
  engagement: readonly [number, number];
  remembered: Remembered[];
}

// Shared by every model: frozen, so no caller can change what another model holds.
const NOTHING: Held = Object.freeze({ prior: NO_COUNTS, engagement: NO_COUNTS, remembered: Object.freeze([]) as unknown as Remembered[] });

export function modelEvidence(model: RerankerModel): Evidence {
  const chunks = new Map<string, Held>();
  const documents = new Map<string, Held>();
  const held = (map: Map<string, Held>, id: string) => {
    let h = map.get(id);
    if (!h) map.set(id, (h = { prior: NO_COUNTS, engagement: NO_COUNTS, remembered: [] }));
    return h;
  };
  const queries = model.memory.queries.map((q) => ({ terms: new Set(q.terms), vector: q.vector ? unpackVector(q.vector) : undefined }));
  for (const j of model.memory.judgements) {
    const q = queries[j.query];
    if (!q) continue;
    const entry: Remembered = { ...q, relevance: j.relevance };
    held(chunks, j.chunkId).remembered.push(entry);
    held(documents, j.sourceDocId).remembered.push(entry);
  }
  for (const [id, prior] of Object.entries(model.priors.chunks)) held(chunks, id).prior = prior;
  for (const [id, prior] of Object.entries(model.priors.documents)) held(documents, id).prior = prior;
  for (const [id, engaged] of Object.entries(model.engagement.chunks)) held(chunks, id).engagement = engaged;
  for (const [id, engaged] of Object.entries(model.engagement.documents ?? {})) held(documents, id).engagement = engaged;
  // Lookups by id are the hot path of every feature row, and its features ask one chunk (and one
  // document) several things in a row: one lookup answers them all.
  const last = (map: Map<string, Held>) => {
    let lastId: string | undefined;
    let lastHeld = NOTHING;
    return (id: string): Held => {
      if (id !== lastId) {
        lastId = id;
        lastHeld = map.get(id) ?? NOTHING;
      }
      return lastHeld;
    };
  };
  const chunk = last(chunks);
  const document = last(documents);
  return {
    chunk: (id) => chunk(id).prior,
    document: (id) => document(id).prior,
    engagement: (id) => chunk(id).engagement,
    documentEngagement: (id) => document(id).engagement,
    baseRate: model.engagement.baseRate,
    remembered: (id) => chunk(id).remembered,
    rememberedOfDocument: (id) => document(id).remembered,
  };
}
