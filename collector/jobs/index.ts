import type { Env } from '../env.ts';
import { runNightly } from './nightly.ts';

/**
 * The Worker's `scheduled` handler. The cron in wrangler.toml fires every 15 minutes: the first
 * invocation of a UTC day starts that night's run, later ones continue it until it is done, and
 * after that each one costs a query for the project list and two per project.
 */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  await runNightly(env, controller.scheduledTime);
};
