/**
 * The served model as `POST /v1/rerank` ranks with it and `GET /v1/reranker` checks it, kept parsed
 * in the isolate by project, version and revision: reading and parsing the artifact of 10,000
 * confirmed examples (1.1 MB, in parts) took 100-250 ms of every call, the model unchanged. A
 * promotion, a rollback or an erasure's rewrite changes the version or the revision, so the next
 * call reads it again.
 */
import { SizedCache } from '../../shared/remember.ts';
import { parseRerankerModel, type RerankerModel } from '../../shared/reranker/model.ts';
import { currentVersionAndRevision, revisedArtifact } from './models.ts';

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
  /** The artifact's own revision when this call read it, read with the text. */
  revision: number;
  model: RerankerModel | null;
  /** The artifact's text, when this call read it. */
  artifact?: string;
}

/**
 * The model users get, kept parsed by project, version and revision: the artifact is read only
 * when none is kept at the revision served, or when `wantsText` says the caller sends the text of
 * the model kept (`GET /v1/reranker` to a backend without it). A model kept as not parsing is
 * never read again at its revision.
 */
export async function rankingModel(d1: D1Database, projectId: string, wantsText?: (version: string, revision: number) => boolean): Promise<RankingModel> {
  const { version, revision } = await currentVersionAndRevision(d1, projectId);
  if (!version) return { version, revision, model: null };
  const hit = keptModel(projectId, version, revision);
  if (hit === null || (hit && !wantsText?.(version, revision))) return { version, revision, model: hit };
  // Read once, with the revision the text is at: an erasure's rewrite since the revision above is
  // kept and answered as what was read, else the new text would be kept under the old revision.
  const read = await revisedArtifact(d1, projectId, version);
  if (!read) return { version, revision, model: keepModel(projectId, version, revision, null) };
  const model = hit && read.revision === revision ? hit : keepModel(projectId, version, read.revision, read.artifact);
  return { version, revision: read.revision, model, artifact: read.artifact };
}

/** The model kept parsed for the project's version at that revision: null for one kept as not parsing, undefined when none is kept. */
function keptModel(projectId: string, version: string, revision: number): RerankerModel | null | undefined {
  const hit = kept.get(projectId);
  return hit && hit.version === version && hit.revision === revision ? hit.model : undefined;
}

/** Parses a version's artifact as read at `revision` (null: none stored) and keeps it so: null when it does not parse. */
function keepModel(projectId: string, version: string, revision: number, artifact: string | null): RerankerModel | null {
  let model: RerankerModel | null = null;
  try {
    model = artifact === null ? null : parseRerankerModel(artifact);
  } catch {
    model = null;
  }
  kept.set(projectId, { version, revision, model, chars: artifact?.length ?? 0 });
  return model;
}
