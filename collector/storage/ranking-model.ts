/**
 * The served model as `POST /v1/rerank` ranks with it and `GET /v1/reranker` checks it, kept parsed
 * in the isolate by project, version and revision: reading and parsing the artifact of 10,000
 * confirmed examples (1.1 MB, in parts) took 100-250 ms of every call, the model unchanged. A
 * promotion, a rollback or an erasure's rewrite changes the version or the revision, so the next
 * call reads it again.
 */
import { SizedCache } from '../../shared/remember.ts';
import { parseRerankerModel, type RerankerModel } from '../../shared/reranker/model.ts';
import { currentVersionAndRevision, modelArtifact } from './models.ts';

/** Characters of artifacts kept parsed across projects (each takes several times that parsed); the newest is kept whatever its size. */
export const RANKING_MODELS_MAX_CHARS = 4_000_000;

interface Kept {
  version: string;
  revision: number;
  /** Null for an artifact that no longer parses: ranked in retrieval's order, as `servedModel` says. */
  model: RerankerModel | null;
  chars: number;
}

const kept = new SizedCache<string, Kept>({ maxEntries: Number.POSITIVE_INFINITY, maxSize: RANKING_MODELS_MAX_CHARS, sizeOf: (k) => k.chars });

/** What users get: its version (null: retrieval's order) and revision, and its model parsed (null too for an artifact that no longer parses). */
export interface RankingModel {
  version: string | null;
  revision: number;
  model: RerankerModel | null;
}

export async function rankingModel(d1: D1Database, projectId: string): Promise<RankingModel> {
  const { version, revision } = await currentVersionAndRevision(d1, projectId);
  if (!version) return { version, revision, model: null };
  const hit = keptModel(projectId, version, revision);
  if (hit !== undefined) return { version, revision, model: hit };
  // Read after the revision: a rewrite landing in between is kept under the older revision, read again next call.
  return { version, revision, model: keepModel(projectId, version, revision, await modelArtifact(d1, projectId, version)) };
}

/** The model kept parsed for the project's version at that revision: null for one kept as not parsing, undefined when none is kept. */
export function keptModel(projectId: string, version: string, revision: number): RerankerModel | null | undefined {
  const hit = kept.get(projectId);
  return hit && hit.version === version && hit.revision === revision ? hit.model : undefined;
}

/** Parses a version's artifact as read at `revision` (null: none stored) and keeps it so: null when it does not parse. */
export function keepModel(projectId: string, version: string, revision: number, artifact: string | null): RerankerModel | null {
  let model: RerankerModel | null = null;
  try {
    model = artifact === null ? null : parseRerankerModel(artifact);
  } catch {
    model = null;
  }
  kept.set(projectId, { version, revision, model, chars: artifact?.length ?? 0 });
  return model;
}
