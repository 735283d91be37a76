import type { Env } from '../env.ts';
import { runNightly } from './nightly.ts';

/**
 * The Worker's `scheduled` handler. The cron in wrangler.toml fires every 15 minutes: the first
 * invocation of a UTC day starts that night's run, later ones continue it until it is done, and
 * after that each one costs two queries (the project list, and whose night is done), however many
 * projects there are. A project another invocation is running a night of, this one or another (a
 * manual run, or an invocation before this one still going), is skipped and logged. A project
 * whose slice fails is logged (Workers Logs) and the invocation reported failed, after the other
 * projects have had their turn.
 */
export const scheduled: ExportedHandlerScheduledHandler<Env> = (controller, env) => runScheduled(env, controller.scheduledTime);

/** One cron invocation at `now`, over every project (or `projects`). */
export async function runScheduled(env: Env, now: number, projects?: readonly string[]): Promise<void> {
  const started = Date.now();
  // One project's failure must not hold up the others'; it is logged, and its run tried again next time.
  const { night, runs } = await runNightly(env, now, { isolate: true, projects });
  for (const run of runs) {
    if (run.error) console.error(JSON.stringify({ nightly: night, project: run.projectId, failed: run.error }));
    // A manual run (or an invocation before this one, still going) has the project, for this night or another: it is left to it.
    else if (run.heldUntil !== undefined)
      console.log(
        JSON.stringify({
          nightly: night,
          project: run.projectId,
          skipped: 'in progress',
          heldBy: run.heldBy,
          heldUntil: new Date(run.heldUntil).toISOString(),
        }),
      );
    else if (run.finishedAt !== null && run.finishedAt >= started) console.log(JSON.stringify({ nightly: night, project: run.projectId, done: run.stages }));
  }
  const failed = runs.filter((r) => r.error).length;
  if (failed) throw new Error(`nightly ${night}: ${failed} project(s) failed; see the log above`);
}
