import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import worker from '../index.ts';
import type { QueuedEvents } from '../ingest-queue/messages.ts';
import { hookedD1 } from './hooked-d1.ts';

/** A queue that keeps what it is sent, or refuses it, in place of INGEST_QUEUE. */
export function fakeQueue(refuse?: Error) {
  const sent: MessageSendRequest<QueuedEvents>[][] = [];
  const queue: Queue<QueuedEvents> = {
    send: () => Promise.reject(new Error('events are sent in batches')),
    async sendBatch(messages) {
      if (refuse) throw refuse;
      sent.push([...messages]);
      return { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };
    },
    metrics: () => Promise.resolve({ backlogCount: 0, backlogBytes: 0 }),
  };
  return { queue, sent, bodies: () => sent.flat().map((m) => m.body), rows: () => sent.flat().flatMap((m) => m.body.rows) };
}

/** What the handler did with a batch, as the pool reads it (workers-types' FetcherQueueResult, which the Worker's generated types lack). */
interface QueueResult {
  ackAll: boolean;
  retryBatch: { retry: boolean; delaySeconds?: number };
  explicitAcks: string[];
  retryMessages: { msgId: string; delaySeconds?: number }[];
  /** The ids of the messages delivered, in order. */
  ids: string[];
}

/**
 * Runs the Worker's queue handler on these messages from `queue`, delivered for the `attempts`th
 * time (ids: fresh ones unless given): what it acked and retried, and the messages' ids.
 */
export async function deliver(
  queue: string,
  bodies: readonly QueuedEvents[],
  { attempts = 1, bindings = {}, ids }: { attempts?: number; bindings?: Partial<Env>; ids?: readonly string[] } = {},
): Promise<QueueResult> {
  const batch = createMessageBatch<QueuedEvents>(
    queue,
    bodies.map((body, i) => ({ id: ids?.[i] ?? crypto.randomUUID(), timestamp: new Date(), attempts, body })),
  );
  // The handler waits on nothing past its return; the context is the one the pool reads the result with.
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, ...bindings });
  const result: Omit<QueueResult, 'ids'> = await getQueueResult(batch, ctx);
  return { ...result, ids: batch.messages.map((m) => m.id) };
}

/** A D1 whose batches fail, as a locked or unreachable database's would: a statement on its own still runs. */
export const failingDb = hookedD1(env.DB, async ({ batch }, run) => {
  if (batch) throw new Error('D1_ERROR: database is locked');
  return run();
});

/** A D1 that runs nothing at all. */
export const downDb = hookedD1(env.DB, async ({ batch }) => {
  throw new Error(`D1_ERROR: Network connection lost (${batch ? 'batch' : 'statement'})`);
});

/** A queued message one of whose rows the schema refuses (no trace id), as it would one queued by an older version. */
export const unwritable = (body: QueuedEvents): QueuedEvents => ({
  ...body,
  rows: body.rows.map((r) => ({ ...r, traceId: null as unknown as string })),
});
