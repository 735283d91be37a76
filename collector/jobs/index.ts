import type { Env } from '../env.ts';

/** One step of the scheduled work; each runs after the one before it has finished. */
export type Job = (env: Env, scheduledTime: number) => Promise<void>;

/** The nightly steps, in order. */
export const NIGHTLY: readonly Job[] = [];

/** The Worker's `scheduled` handler (cron triggers in wrangler.toml): every step, in order. */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  for (const job of NIGHTLY) await job(env, controller.scheduledTime);
};
