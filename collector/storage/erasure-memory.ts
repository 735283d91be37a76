/**
 * An erased user's questions leave the stored models' memory: each batch of erasure keeps the set
 * of terms of the questions it deletes (`erasure_memory`, kind `terms`), and once their traces are
 * gone every version in the registry is rewritten without the memory queries with one of those
 * sets (shared/reranker/forget-questions.ts), one model per step, then the sets are dropped.
 */
import { type ModelMemory, questionTermSet, withoutQuestions } from '../../shared/reranker/forget-questions.ts';
import { rewriteArtifact } from './models.ts';

/**
 * Keeps the term sets of a batch's questions, in the batch's transaction: its traces go with it.
 * A listing of models begun before is dropped, so every model is scrubbed with these too.
 */
export function keepQuestionTerms(d1: D1Database, projectId: string, userIdHash: string, queries: readonly string[]): D1PreparedStatement[] {
  return [
    d1
      .prepare(`insert or ignore into erasure_memory (project_id, user_id_hash, kind, key) select ?1, ?2, 'terms', value from json_each(?3)`)
      .bind(projectId, userIdHash, JSON.stringify([...new Set(queries.map(questionTermSet))])),
    d1.prepare(`delete from erasure_memory where project_id = ?1 and user_id_hash = ?2 and kind = 'model'`).bind(projectId, userIdHash),
  ];
}

/**
 * Rewrites the project's models without the user's questions, each while `more()` allows another
 * step; true once every model is scrubbed (the kept term sets are dropped then). Kept sets with no
 * model listed mean none is yet: the last model's step drops the sets with it.
 */
export async function forgetQuestionsInModels(d1: D1Database, projectId: string, userIdHash: string, more: () => boolean): Promise<boolean> {
  const rows = (kind: string, limit: number) =>
    d1
      .prepare('select key from erasure_memory where project_id = ? and user_id_hash = ? and kind = ? order by key limit ?')
      .bind(projectId, userIdHash, kind, limit)
      .all<{ key: string }>();
  const forgotten = new Set((await rows('terms', -1)).results.map((r) => r.key));
  if (forgotten.size === 0) return true;
  const dropTerms = d1
    .prepare(
      `delete from erasure_memory where project_id = ?1 and user_id_hash = ?2 and kind = 'terms'
         and not exists (select 1 from erasure_memory where project_id = ?1 and user_id_hash = ?2 and kind = 'model')`,
    )
    .bind(projectId, userIdHash);
  let listed = false;
  for (;;) {
    const [next] = (await rows('model', 1)).results;
    if (!next) {
      if (listed) return true;
      // With no model stored, the sets go at once.
      await d1.batch([
        d1
          .prepare(
            `insert or ignore into erasure_memory (project_id, user_id_hash, kind, key) select ?1, ?2, 'model', version from models where project_id = ?1`,
          )
          .bind(projectId, userIdHash),
        dropTerms,
      ]);
      listed = true;
      continue;
    }
    listed = true;
    if (!more()) return false;
    const rewritten = await rewriteArtifact(d1, projectId, next.key, (artifact) => {
      const model = JSON.parse(artifact) as ModelMemory;
      // One without a memory has no questions to take out.
      const scrubbed = Array.isArray(model.memory?.queries) && withoutQuestions(model, forgotten);
      return scrubbed ? JSON.stringify(scrubbed) : null;
    });
    // Another rewrite landed meanwhile (another user's erasure): this model is read again.
    if (!rewritten) continue;
    await d1.batch([
      d1
        .prepare(`delete from erasure_memory where project_id = ?1 and user_id_hash = ?2 and kind = 'model' and key = ?3`)
        .bind(projectId, userIdHash, next.key),
      dropTerms,
    ]);
  }
}
