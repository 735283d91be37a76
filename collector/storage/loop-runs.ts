import type { RunStatus, StageReport } from '../../shared/admin-api/nightly.ts';

/** One night's run of one project, as the job reads and writes it. */
export interface RunRow {
  projectId: string;
  night: string;
  status: RunStatus;
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
  lease_owner: string | null;
  lease_until: number | null;
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

/** The invocation holding a run (a random id of its own), and until when (epoch ms, by the real clock). */
export interface Lease {
  owner: string;
  until: number;
}

/**
 * What taking a run's lease found: the run as it is now, held; or the project held by another
 * invocation, running the night `heldBy` (this one or another), until then, with the night's run
 * if one was started before; or the run done meanwhile.
 */
export type Leased = { run: RunRow } | { heldBy: string; heldUntil: number; run?: RunRow } | { done: RunRow };

/**
 * Whether a run of the project of another night than `night` (SQL parameters), still running, is
 * held at `now`: one night of a project runs at a time, since every night's stages write the same
 * per-project tables. A finished run's lease (its invocation failed to let go) holds nothing.
 */
const OTHER_NIGHT_HELD = (project: string, night: string, now: string) =>
  `exists (select 1 from loop_runs o where o.project_id = ${project} and o.night <> ${night} and o.status = 'running' and o.lease_until > ${now})`;

/**
 * Where a new run of the project ?1's night ?2 starts its window: where the last earlier run that
 * finished ended its own (0 for a project's first run). A run left unfinished when its night passed
 * is not continued, so its window is covered again.
 */
const LAST_WINDOW_END = `coalesce((select max(window_to) from loop_runs where project_id = ?1 and night < ?2 and status = 'done'), 0)`;

/**
 * Takes the night's run for `lease.owner` in one statement, starting it (its window ending at
 * `windowTo`) when there is none yet: only while no run of another night of the project is held,
 * and a run started before only while it is still running and its lease is free or has lapsed by
 * `now` (its holder crashed). A project held by another invocation so costs two queries, and gets
 * no run. A run once taken is read as it is then: the holder before may have moved it on since.
 */
export async function leaseRun(d1: D1Database, projectId: string, night: string, windowTo: number, lease: Lease, now: number): Promise<Leased> {
  const taken = await d1
    .prepare(
      `insert into loop_runs (project_id, night, status, stage, cursor, window_from, window_to, state, stages, started_at, lease_owner, lease_until)
       select ?1, ?2, 'running', 0, null, ${LAST_WINDOW_END}, ?3, '{}', '[]', ?6, ?4, ?5 where not ${OTHER_NIGHT_HELD('?1', '?2', '?6')}
       on conflict (project_id, night) do update set lease_owner = excluded.lease_owner, lease_until = excluded.lease_until
         where loop_runs.status = 'running' and (loop_runs.lease_until is null or loop_runs.lease_until <= ?6)
       returning *`,
    )
    .bind(projectId, night, windowTo, lease.owner, lease.until, now)
    .first<RawRun>();
  if (taken) return { run: fromRaw(taken) };
  // The night's run, if it was started, and whichever of the project's runs holds it.
  const { results } = await d1
    .prepare(`select * from loop_runs where project_id = ?1 and (night = ?2 or (status = 'running' and lease_until > ?3))`)
    .bind(projectId, night, now)
    .all<RawRun>();
  const row = results.find((r) => r.night === night);
  if (row?.status === 'done') return { done: fromRaw(row) };
  // None held: let go of between the two statements, so the next call takes it.
  const holder = results.find((r) => r.status === 'running' && r.lease_until !== null && r.lease_until > now);
  return { heldBy: holder?.night ?? night, heldUntil: holder?.lease_until ?? now, ...(row && { run: fromRaw(row) }) };
}

/** Lets go of the run, if `owner` still holds it: the next invocation takes it at once. */
export async function releaseRun(d1: D1Database, projectId: string, night: string, owner: string): Promise<void> {
  await d1
    .prepare('update loop_runs set lease_owner = null, lease_until = null where project_id = ? and night = ? and lease_owner = ?')
    .bind(projectId, night, owner)
    .run();
}

/**
 * Saves where the run is after a slice, and holds it until `lease.until`, only while `lease.owner`
 * holds it and no other night's run of the project is held at `now`: false when another
 * invocation took it over (this one's lease lapsed), which then runs it, or another night, from
 * where it was last saved. Its state gets only what the slice changed (a JSON merge patch: a key
 * set to null goes), so a change made meanwhile by another writer (erasure) stays.
 */
export async function saveRun(d1: D1Database, run: RunRow, lease: Lease, now: number, statePatch?: Record<string, unknown>): Promise<boolean> {
  const { meta } = await d1
    .prepare(
      `update loop_runs set status = ?1, stage = ?2, cursor = ?3, state = case when ?4 is null then state else json_patch(state, ?4) end, stages = ?5,
         finished_at = ?6, lease_until = ?7 where project_id = ?8 and night = ?9 and lease_owner = ?10 and not ${OTHER_NIGHT_HELD('?8', '?9', '?11')}`,
    )
    .bind(
      run.status,
      run.stage,
      run.cursor,
      statePatch ? JSON.stringify(statePatch) : null,
      JSON.stringify(run.stages),
      run.finishedAt,
      lease.until,
      run.projectId,
      run.night,
      lease.owner,
      now,
    )
    .run();
  return meta.changes > 0;
}

/** The latest runs first. */
export async function listRuns(d1: D1Database, projectId: string, limit: number): Promise<RunRow[]> {
  const { results } = await d1.prepare('select * from loop_runs where project_id = ? order by night desc limit ?').bind(projectId, limit).all<RawRun>();
  return results.map(fromRaw);
}
