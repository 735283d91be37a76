import type { StageReport } from './schema/index.ts';

/** One night's run of one project, as the job reads and writes it. */
export interface RunRow {
  projectId: string;
  night: string;
  status: 'running' | 'done';
  stage: number;
  cursor: string | null;
  windowFrom: number;
  windowTo: number;
  state: Record<string, unknown>;
  stages: StageReport[];
  startedAt: number;
  finishedAt: number | null;
}

interface RawRun {
  project_id: string;
  night: string;
  status: RunRow['status'];
  stage: number;
  cursor: string | null;
  window_from: number;
  window_to: number;
  state: string;
  stages: string;
  started_at: number;
  finished_at: number | null;
}

const fromRaw = (r: RawRun): RunRow => ({
  projectId: r.project_id,
  night: r.night,
  status: r.status,
  stage: r.stage,
  cursor: r.cursor,
  windowFrom: r.window_from,
  windowTo: r.window_to,
  state: JSON.parse(r.state) as Record<string, unknown>,
  stages: JSON.parse(r.stages) as StageReport[],
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/**
 * One row when a run of a later night than ?2 is done for the project ?1: a missed night run after
 * it (`POST /v1/admin/nightly?at=`) leaves what that later night decided (the queue's threshold,
 * the documents' flags, the model served) as it is, and its health snapshot the state it cannot know.
 */
export const LATER_NIGHT_DONE_SQL = `select 1 from loop_runs where project_id = ? and night > ? and status = 'done' limit 1`;

export async function projectIds(d1: D1Database): Promise<string[]> {
  const { results } = await d1.prepare('select id from projects order by id').all<{ id: string }>();
  return results.map((r) => r.id);
}

/** The projects whose run of `night` is done: one query, however many projects there are. */
export async function doneOn(d1: D1Database, night: string): Promise<Set<string>> {
  const { results } = await d1.prepare(`select project_id from loop_runs where night = ? and status = 'done'`).bind(night).all<{ project_id: string }>();
  return new Set(results.map((r) => r.project_id));
}

export async function runOf(d1: D1Database, projectId: string, night: string): Promise<RunRow | undefined> {
  const row = await d1.prepare('select * from loop_runs where project_id = ? and night = ?').bind(projectId, night).first<RawRun>();
  return row ? fromRaw(row) : undefined;
}

/**
 * Where the last earlier run that finished ended its window: this run starts there (0 for a
 * project's first run). A run left unfinished when its night passed is not continued, so its
 * window is covered again.
 */
export async function lastWindowEnd(d1: D1Database, projectId: string, night: string): Promise<number> {
  const row = await d1
    .prepare(`select max(window_to) as t from loop_runs where project_id = ? and night < ? and status = 'done'`)
    .bind(projectId, night)
    .first<{ t: number | null }>();
  return row?.t ?? 0;
}

/** Starts the night's run; a concurrent invocation that got there first wins, and its row is returned. */
export async function createRun(d1: D1Database, projectId: string, night: string, windowFrom: number, now: number): Promise<RunRow> {
  await d1
    .prepare(
      `insert into loop_runs (project_id, night, status, stage, cursor, window_from, window_to, state, stages, started_at)
       values (?, ?, 'running', 0, null, ?, ?, '{}', '[]', ?) on conflict do nothing`,
    )
    .bind(projectId, night, windowFrom, now, Date.now())
    .run();
  return (await runOf(d1, projectId, night))!;
}

/**
 * Saves where the run is after a slice. Its state gets only what the slice changed (a JSON merge
 * patch: a key set to null goes), so a change made meanwhile by another writer (erasure) stays.
 */
export async function saveRun(d1: D1Database, run: RunRow, statePatch?: Record<string, unknown>): Promise<void> {
  await d1
    .prepare(
      `update loop_runs set status = ?1, stage = ?2, cursor = ?3, state = case when ?4 is null then state else json_patch(state, ?4) end, stages = ?5,
         finished_at = ?6 where project_id = ?7 and night = ?8`,
    )
    .bind(
      run.status,
      run.stage,
      run.cursor,
      statePatch ? JSON.stringify(statePatch) : null,
      JSON.stringify(run.stages),
      run.finishedAt,
      run.projectId,
      run.night,
    )
    .run();
}

/** The latest runs first. */
export async function listRuns(d1: D1Database, projectId: string, limit: number): Promise<RunRow[]> {
  const { results } = await d1.prepare('select * from loop_runs where project_id = ? order by night desc limit ?').bind(projectId, limit).all<RawRun>();
  return results.map(fromRaw);
}
