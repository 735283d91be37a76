/**
 * When a training last began to read a project's reviewed answers (`training_reads`), and what that
 * does to the answers saved after it: stamped after the read, so that a model never takes as seen an
 * answer stamped by its request's clock before the read but saved after it, which the read missed;
 * and when a model recorded without its read's time read its data.
 */

/**
 * Records that a training begins to read the project's reviewed answers now, before it reads them,
 * and answers that moment: its model's `dataReadAt`, by the real clock. Never moved back.
 */
export async function startTrainingRead(d1: D1Database, projectId: string): Promise<number> {
  const readAt = Date.now();
  await d1
    .prepare(
      `insert into training_reads (project_id, read_at) values (?1, ?2)
       on conflict (project_id) do update set read_at = max(read_at, excluded.read_at)`,
    )
    .bind(projectId, readAt)
    .run();
  return readAt;
}

/**
 * SQL for when a model of project ?1 recorded at `at` (an SQL expression) without its read's time
 * read its data: at the latest read, the latest it can have been trained from, when not after `at`
 * (only the latest is kept), else at `at`. Taken as `at`, answers saved while it trained would count
 * as seen; an answer saved after the read is stamped after it, so it is new to the model.
 */
export const modelReadAtSql = (at: string) => `min(coalesce((select read_at from training_reads where project_id = ?1), ${at}), ${at})`;

/** SQL for the earliest an answer of project ?1 saved now may be stamped: after the latest training's read began. */
export const AFTER_TRAINING_READ_SQL = 'select read_at + 1 from training_reads where project_id = ?1';
