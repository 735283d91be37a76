import { app } from './app.ts';
import type { Env } from './env.ts';
import { scheduled } from './jobs/index.ts';

/** The Worker: the HTTP API, and the scheduled work of the loop. */
export default {
  fetch: app.fetch,
  scheduled,
} satisfies ExportedHandler<Env>;
