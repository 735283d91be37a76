/**
 * An erased user's questions leave the stored models' memory: each batch of erasure keeps the
 * SHA-256 of the set of terms of the questions it deletes (`erasure_memory`, kind `terms`), and
 * once their traces are gone every version in the registry is rewritten without the memory queries
 * with one of those sets (shared/reranker/forget-questions.ts), one model per step, then the sets
 * move to `erased_questions`. A model recorded while an erasure is under way, or trained from data
 * read before one finished, is recorded without its questions too (`recordForgetting`).
 */
import { isTermSetHash, type ModelMemory, questionTermHash, termSetHash, withoutQuestions } from '../../shared/reranker/forget-questions.ts';
import { type NewModel, type Recorded, recordModel, rewriteArtifact, type WriteCondition } from './models.ts';
import { NOW_MS_SQL } from './sql/now-ms.ts';

/**
 * Keeps the term sets of a batch's questions, in the batch's transaction: its traces go with it.
 * Every stored model is listed again, so each is scrubbed with these too, however far a scrub
 * under way had gone.
 */
export async function keepQuestionTerms(d1: D1Database, projectId: string, userIdHash: string, queries: readonly string[]): Promise<D1PreparedStatement[]> {
  const hashes = await Promise.all([...new Set(queries)].map(questionTermHash));
  return [
    d1
      .prepare(`insert or ignore into erasure_memory (project_id, user_id_hash, kind, key) select ?1, ?2, 'terms', value from json_each(?3)`)
      .bind(projectId, userIdHash, JSON.stringify([...new Set(hashes)])),
    listModels(d1, projectId, userIdHash),
  ];
}

/** Lists every stored model as one to scrub of the user's questions. */
const listModels = (d1: D1Database, projectId: string, userIdHash: string) =>
  d1
    .prepare(`insert or ignore into erasure_memory (project_id, user_id_hash, kind, key) select ?1, ?2, 'model', version from models where project_id = ?1`)
    .bind(projectId, userIdHash);

/** Kept keys as hashes: rows an erasure kept before they were hashed hold the set of terms itself (`termSetKey`). */
const asHashes = async (keys: readonly string[]): Promise<Set<string>> =>
  new Set(await Promise.all(keys.map((key) => (isTermSetHash(key) ? key : termSetHash(JSON.parse(key) as string[])))));

/** The artifact without `forgotten`'s questions, as text, or null when it remembers none of them. */
async function scrubbed(artifact: string, forgotten: ReadonlySet<string>): Promise<string | null> {
  const model = JSON.parse(artifact) as ModelMemory;
  // One without a memory has no questions to take out.
  if (!Array.isArray(model.memory?.queries)) return null;
  const without = await withoutQuestions(model, forgotten);
  return without ? JSON.stringify(without) : null;
}

/**
 * Rewrites the project's models without the user's questions, each while `more()` allows another
 * step; true once every model is scrubbed, when the kept term sets move to `erased_questions`.
 * The sets are read again each step: a batch of answers erased meanwhile adds its own and lists
 * every model again. A model's step, and the move, count only while the sets are those read.
 */
export async function forgetQuestionsInModels(d1: D1Database, projectId: string, userIdHash: string, more: () => boolean): Promise<boolean> {
  const rows = (kind: string, limit: number) =>
    d1
      .prepare('select key from erasure_memory where project_id = ? and user_id_hash = ? and kind = ? order by key limit ?')
      .bind(projectId, userIdHash, kind, limit)
      .all<{ key: string }>();
  for (;;) {
    const kept = (await rows('terms', -1)).results.map((r) => r.key);
    if (kept.length === 0) return true;
    const forgotten = await asHashes(kept);
    // Sets are only added while a scrub runs, so their count says whether they are still those read.
    const unchanged = `(select count(*) from erasure_memory where project_id = ?1 and user_id_hash = ?2 and kind = 'terms') = ${kept.length}`;
    const noModelLeft = `not exists (select 1 from erasure_memory where project_id = ?1 and user_id_hash = ?2 and kind = 'model')`;
    // Stamped as it lands: a model trained from data read before then forgets these too.
    const finish = [
      d1
        .prepare(
          `insert into erased_questions (project_id, key, erased_at) select ?1, value, ${NOW_MS_SQL} from json_each(?3) where ${noModelLeft} and ${unchanged}
           on conflict do update set erased_at = max(erased_at, excluded.erased_at)`,
        )
        .bind(projectId, userIdHash, JSON.stringify([...forgotten])),
      d1
        .prepare(`delete from erasure_memory where project_id = ?1 and user_id_hash = ?2 and kind = 'terms' and ${noModelLeft} and ${unchanged}`)
        .bind(projectId, userIdHash),
    ];
    const [next] = (await rows('model', 1)).results;
    if (!next) {
      // None listed: no model is stored (the sets go at once), or sets were kept before batches listed models.
      await d1.batch([listModels(d1, projectId, userIdHash), ...finish]);
      continue;
    }
    if (!more()) return false;
    const rewritten = await rewriteArtifact(d1, projectId, next.key, (artifact) => scrubbed(artifact, forgotten));
    // Another rewrite landed meanwhile (another user's erasure): this model is read again.
    if (!rewritten) continue;
    await d1.batch([
      d1
        .prepare(`delete from erasure_memory where project_id = ?1 and user_id_hash = ?2 and kind = 'model' and key = ?3 and ${unchanged}`)
        .bind(projectId, userIdHash, next.key),
      ...finish,
    ]);
  }
}

/** The kept questions a model trained from data read at ?p2 must not remember, in project ?p1. */
const keysToForget = (project: number, readAt: number) =>
  `select key from erasure_memory where project_id = ?${project} and kind = 'terms'
   union select key from erased_questions where project_id = ?${project} and erased_at >= ?${readAt}`;

/**
 * The questions a model trained from data read at `dataReadAt` must not remember: those of every
 * erasure under way, and of those finished since (all kept, when the time is not known), as kept.
 */
async function keptToForget(d1: D1Database, projectId: string, dataReadAt: number | undefined): Promise<string[]> {
  const { results } = await d1
    .prepare(keysToForget(1, 2))
    .bind(projectId, dataReadAt ?? 0)
    .all<{ key: string }>();
  return results.map((r) => r.key);
}

/** Holds while the questions to forget are exactly `kept` (as many, and none other). */
const stillToForget =
  (projectId: string, dataReadAt: number | undefined, kept: readonly string[]): WriteCondition =>
  (first) => {
    const [project, readAt, keys] = [first, first + 1, first + 2];
    return {
      sql: `(select count(*) from (${keysToForget(project, readAt)})) = json_array_length(?${keys})
            and not exists (select key from (${keysToForget(project, readAt)}) except select value from json_each(?${keys}))`,
      values: [projectId, dataReadAt ?? 0, JSON.stringify(kept)],
    };
  };

/**
 * Records a model (models.ts `recordModel`) without the questions of erasures under way or
 * finished after its training data was read (`m.dataReadAt`; unknown: every one kept). It is written
 * only while those are the questions it was scrubbed of, else scrubbed again: an erasure landing
 * after the write lists it among the models to rewrite, so none serves an erased question.
 */
export async function recordForgetting(d1: D1Database, projectId: string, m: NewModel): Promise<Recorded> {
  const { dataReadAt } = m;
  for (;;) {
    const kept = await keptToForget(d1, projectId, dataReadAt);
    const model = (await withoutQuestions(m.model, await asHashes(kept))) ?? m.model;
    const recorded = await recordModel(d1, projectId, { ...m, model }, stillToForget(projectId, dataReadAt, kept));
    if (recorded.outcome !== 'condition_failed') return recorded;
  }
}
