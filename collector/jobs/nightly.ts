/**
 * The nightly loop: per project, the stages in order, in bounded slices whose cursor and counts
 * are saved after each one. An invocation that runs out of its budget leaves the run where it
 * stopped; the next one (the cron fires again, or `POST /v1/admin/nightly`) continues it. A run
 * that is done is not run again for the same night, so a second invocation changes nothing.
 */
import type { NightlySummary, StageReport } from '../../shared/admin-api/nightly.ts';
import { utcDay } from '../../shared/time.ts';
import type { Env } from '../env.ts';
import { countedR2 } from '../storage/counted-r2.ts';
import { doneOn, type Lease, leaseRun, projectIds, type RunRow, releaseRun, runOf, saveRun } from '../storage/loop-runs.ts';
import { settingsOf } from '../storage/loop-settings.ts';
import { countedD1 } from '../storage/sql/counted-d1.ts';
import { readVar } from '../worker-vars.ts';
import { MIN_QUERY_BUDGET, PROJECT_START_QUERIES, SLICE_QUERY_RESERVE } from './query-budget.ts';
import { BULK_FROM_TRACES, BULK_SHARE, STAGES, type StageContext, TRACES_PER_SLICE } from './stages/index.ts';

export interface NightlyOptions {
  /** Only these projects (the admin API runs its own project's loop; tests keep to theirs); default every project. */
  projects?: readonly string[];
  /** Stop after this many slices in all (tests cut runs short with it). */
  maxSlices?: number;
  /** Stop starting new slices after this many milliseconds (a Cron Trigger's CPU limit). */
  budgetMs?: number;
  /** D1 queries one invocation may run (Cloudflare's limit per invocation): no slice starts that could pass it. */
  queryBudget?: number;
  /** Traces per slice (tests make slices small to cut runs between them). */
  tracesPerSlice?: number;
  /** When a run loads in bulk (tests lower both to load their few traces so). */
  bulk?: StageContext['bulk'];
  /**
   * Go on with the other projects when one project's slice fails (the cron's run over every
   * project): the failure is noted in its run's report and the run left where it stopped, for the
   * next invocation to try again. Without it the error propagates (one project's run on demand).
   */
  isolate?: boolean;
  /**
   * The real time, when `now` is a moment a caller asked for (`POST /v1/admin/nightly?at=`) that
   * may be ahead of it: what goes by age goes by the earlier of the two, so a night run ahead of
   * time never purges a row still within its retention. Without it `now` is the clock (the cron's
   * scheduled time, or tests stepping through days).
   */
  wallClock?: number;
  /**
   * Aborts when the caller has gone (`POST /v1/admin/nightly`'s request, its client hung up): from
   * then on no slice starts past HANGUP_SLICES_MS, so the run saves its slice under way and lets go
   * within the time the runtime keeps it going. The cron has none.
   */
  hangup?: AbortSignal;
}

/** Wall time one invocation spends at most: well inside a Cron Trigger's 30 s default CPU limit. */
export const DEFAULT_BUDGET_MS = 20_000;

/**
 * How long an invocation holds a night's run past its last saved slice (storage/loop-runs.ts
 * `leaseRun`): no other invocation runs it, nor another night of its project, meanwhile. It need
 * only outlast one slice, as each slice saved holds it that long again: slices start within
 * DEFAULT_BUDGET_MS and the longest measured took under a minute (docs/nightly-performance.md).
 * It stays under the cron's 15 minutes, so a project whose invocation crashed is free again by the
 * next trigger.
 */
export const LEASE_MS = 5 * 60_000;

/**
 * How long after its client hung up a manual run may still start a slice. Cloudflare keeps work
 * handed to `waitUntil` going 30 s after the client has gone, then cancels it, its `finally` and
 * release with it (the project then held until the lease lapses). Without this the last slice could
 * start up to DEFAULT_BUDGET_MS after the hang-up and end a slice later; with it the slice under way
 * at the cut-off has the other 25 s to end, be saved and let go: more than any slice measured at
 * full scale took (docs/nightly-performance.md: 14 s at most, retention's before it read only what
 * is due).
 */
export const HANGUP_SLICES_MS = 5_000;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** How a failed slice's note begins: it stays on its stage's line until a slice of the stage gets through. */
const FAILED_NOTE = 'failed, to be tried again: ';

/** Runs or continues the night of `now` for every project (or those given). */
export async function runNightly(env: Env, now: number, options: NightlyOptions = {}): Promise<NightlySummary> {
  const night = utcDay(now);
  const started = Date.now();
  // No slice starts at or past it: the time budget's end, or soon after the caller hung up.
  let deadline = started + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  const hungUp = () => {
    deadline = Math.min(deadline, Date.now() + HANGUP_SLICES_MS);
  };
  if (options.hangup?.aborted) hungUp();
  else options.hangup?.addEventListener('abort', hungUp, { once: true });
  const queryBudget = options.queryBudget ?? readVar(env, 'NIGHTLY_QUERY_BUDGET');
  // Below it no night would ever start, and every invocation would say nothing was wrong.
  if (queryBudget < MIN_QUERY_BUDGET) {
    throw new RangeError(
      `A D1 query budget of ${queryBudget} (NIGHTLY_QUERY_BUDGET) is below the ${MIN_QUERY_BUDGET} one invocation needs to start a night and run a slice of it; the job needs Workers Paid (1,000 an invocation)`,
    );
  }
  const { db, queries: d1Queries } = countedD1(env.DB);
  // R2 calls are subrequests as D1 queries are: the budget counts both.
  const r2 = env.ARCHIVE && countedR2(env.ARCHIVE);
  const queries = () => d1Queries() + (r2?.calls() ?? 0);
  let slicesLeft = options.maxSlices ?? Number.POSITIVE_INFINITY;
  const runs: NightlySummary['runs'] = [];
  const projects = options.projects ?? (await projectIds(db));
  // A night done is passed over without a query per project, so many projects fit in one invocation.
  const done = await doneOn(db, night);
  const left = () => queryBudget - queries();
  // This invocation's own: a night's run is held under it while it runs the run's slices.
  const owner = crypto.randomUUID();
  const lease = (): Lease => ({ owner, until: Date.now() + LEASE_MS });
  for (const projectId of projects) {
    if (done.has(projectId)) {
      // Read again only for a caller that asked for these projects (the admin API for its own).
      runs.push(options.projects ? reported((await runOf(db, projectId, night))!) : { projectId, status: 'done', stage: null, finishedAt: null, stages: [] });
      continue;
    }
    if (left() < PROJECT_START_QUERIES + SLICE_QUERY_RESERVE || Date.now() >= deadline) {
      // Out of queries or time for this invocation: the next one starts or continues this project's
      // night, and holding it here only to let it go would cost queries and run no slice.
      runs.push(unstarted(projectId));
      continue;
    }
    let run: RunRow;
    try {
      // The hold first: a project another invocation holds costs no more queries, and gets no run.
      // The window ends at the night's moment, or now if that is later than now: nothing can have
      // arrived after now, and a window reaching into the future would hide what arrives before the
      // next run (a simulation stepping through weeks ahead of the wall clock). The lease goes by
      // the real clock, whatever night is run.
      const leased = await leaseRun(db, projectId, night, Math.min(now, Date.now()), lease(), Date.now());
      if ('done' in leased) {
        runs.push(reported(leased.done));
        continue;
      }
      if ('heldUntil' in leased) {
        runs.push({ ...(leased.run ? reported(leased.run) : unstarted(projectId)), heldBy: leased.heldBy, heldUntil: leased.heldUntil });
        continue;
      }
      run = leased.run;
    } catch (err) {
      if (!options.isolate) throw err;
      runs.push({ ...unstarted(projectId), error: `start: ${messageOf(err)}` });
      continue;
    }
    try {
      let settings: StageContext['settings'];
      try {
        // Read once the run is held: a project another invocation holds needs none.
        settings = await settingsOf(db, projectId);
      } catch (err) {
        if (!options.isolate) throw err;
        // No slice runs: the run is reported as it was, and released.
        runs.push({ ...reported(run), error: `start: ${messageOf(err)}` });
        continue;
      }
      let error: string | undefined;
      const ctx: StageContext = {
        db,
        projectId,
        night,
        now,
        purgeNow: Math.min(now, options.wallClock ?? now),
        settings,
        archive: r2?.bucket,
        run,
        tracesPerSlice: options.tracesPerSlice ?? TRACES_PER_SLICE,
        bulk: options.bulk ?? { fromTraces: BULK_FROM_TRACES, share: BULK_SHARE },
      };
      while (run.status === 'running' && slicesLeft > 0 && Date.now() < deadline && left() >= SLICE_QUERY_RESERVE) {
        const stage = STAGES[run.stage]!;
        const t0 = Date.now();
        const q0 = queries();
        let slice: Awaited<ReturnType<typeof stage.slice>>;
        try {
          slice = await stage.slice({ ...ctx, run }, run.cursor);
        } catch (err) {
          if (!options.isolate) throw err;
          error = `${stage.name}: ${messageOf(err)}`;
          // The report says why the run stopped; the run stays where it was, so the next invocation tries the slice again.
          run = { ...run, stages: mergeReport(run.stages, stage.name, Date.now() - t0, queries() - q0, {}, `${FAILED_NOTE}${error}`) };
          await saveRun(db, run, lease(), Date.now()).catch(() => undefined);
          break;
        }
        const { cursor, counts, state, note } = slice;
        const ms = Date.now() - t0;
        slicesLeft--;
        const stages = mergeReport(run.stages, stage.name, ms, queries() - q0, counts, note);
        const next = cursor === null ? run.stage + 1 : run.stage;
        const done = next >= STAGES.length;
        const moved: RunRow = {
          ...run,
          stage: done ? run.stage : next,
          cursor: cursor,
          state: state ? { ...run.state, ...state } : run.state,
          stages,
          status: done ? 'done' : 'running',
          finishedAt: done ? Date.now() : null,
        };
        if (!(await saveRun(db, moved, lease(), Date.now(), state))) {
          // This invocation's lease lapsed during the slice: another one took the project, for this
          // night (from where it was saved before) or another.
          error = `${stage.name}: another invocation took the project over (this one's lease lapsed during the slice): it runs this night from the slice saved before, or another night first`;
          break;
        }
        run = moved;
      }
      runs.push({ ...reported(run), ...(error ? { error } : {}) });
    } finally {
      // After a failure too, so the next invocation takes the run at once; should this fail, the lease lapses.
      await releaseRun(db, projectId, night, owner).catch(() => undefined);
    }
  }
  return { night, calledAt: started, runs, done: runs.every((r) => r.status === 'done') };
}

/** A night's run as reported when this invocation did not start or continue it. */
const unstarted = (projectId: string): NightlySummary['runs'][number] => ({ projectId, status: 'running', stage: null, finishedAt: null, stages: [] });

/** A night's run as reported. */
const reported = (run: RunRow): NightlySummary['runs'][number] => ({
  projectId: run.projectId,
  status: run.status,
  stage: run.status === 'done' ? null : STAGES[run.stage]!.name,
  finishedAt: run.finishedAt,
  stages: run.stages,
});

/** Adds one slice to its stage's line of the report (counts add up across slices; a failure's note goes once a slice gets through). */
function mergeReport(stages: readonly StageReport[], name: string, ms: number, queries: number, counts: Record<string, number>, note?: string): StageReport[] {
  const out = stages.map((s) => ({ ...s, counts: { ...s.counts } }));
  let line = out.find((s) => s.name === name);
  if (!line) out.push((line = { name, slices: 0, ms: 0, counts: {} }));
  line.slices++;
  line.ms += ms;
  line.queries = (line.queries ?? 0) + queries;
  line.sliceQueriesMax = Math.max(line.sliceQueriesMax ?? 0, queries);
  for (const [k, v] of Object.entries(counts)) line.counts[k] = (line.counts[k] ?? 0) + v;
  if (note) line.note = note;
  else if (line.note?.startsWith(FAILED_NOTE)) delete line.note;
  return out;
}
