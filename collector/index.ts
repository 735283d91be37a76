import { app } from './app.ts';
import type { Env } from './env.ts';
import { consumeEvents } from './ingest-queue/consume.ts';
import { keepDeadLetters } from './ingest-queue/dead-letters.ts';
import type { QueuedEvents } from './ingest-queue/messages.ts';
import { DEAD_LETTER_QUEUE } from './ingest-queue/queue-names.ts';
import { scheduled } from './jobs/index.ts';

/** The Worker: the HTTP API, the scheduled work of the loop, and the queued events' writes (and what they could not write). */
export default {
  fetch: app.fetch,
  scheduled,
  queue: (batch, env) => (batch.queue === DEAD_LETTER_QUEUE ? keepDeadLetters(batch, env) : consumeEvents(batch, env)),
} satisfies ExportedHandler<Env, QueuedEvents>;
