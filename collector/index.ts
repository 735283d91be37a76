import { app } from './app.ts';
import type { Env } from './env.ts';
import { consumeEvents } from './ingest-queue/consume.ts';
import type { QueuedEvents } from './ingest-queue/messages.ts';
import { scheduled } from './jobs/index.ts';

/** The Worker: the HTTP API, the scheduled work of the loop, and the queued events' writes. */
export default {
  fetch: app.fetch,
  scheduled,
  queue: consumeEvents,
} satisfies ExportedHandler<Env, QueuedEvents>;
