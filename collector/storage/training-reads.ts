/**
 * When a training last began to read a project's reviewed answers (`training_reads`), and what that
 * does to the answers saved after it: stamped after the read, so that a model never takes as seen an
 * answer stamped by its request's clock before the read but saved after it, which the read missed.
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

/** SQL for the earliest an answer of project ?1 saved now may be stamped: after the latest training's read began. */
export const AFTER_TRAINING_READ_SQL = 'select read_at + 1 from training_reads where project_id = ?1';
