import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { experimental_readRawConfig, type Unstable_RawConfig } from 'wrangler';
import { DEAD_LETTER_QUEUE } from '../collector/ingest-queue/queue-names.ts';
import { ROOT } from './wrangler.ts';

describe("wrangler.toml's queues", () => {
  it("sends the events queue's dead letters to the queue the Worker takes as such (DEAD_LETTER_QUEUE), and consumes it", () => {
    // Read as wrangler reads it, not by hand (its reader's types are not shipped: the config's are).
    const { rawConfig } = experimental_readRawConfig({ config: join(ROOT, 'wrangler.toml') }) as { rawConfig: Unstable_RawConfig };
    const { queues } = rawConfig;
    const events = queues?.producers?.find((p) => p.binding === 'INGEST_QUEUE')?.queue;
    const consumerOf = (queue: string | undefined) => queues?.consumers?.find((c) => c.queue === queue);
    // Under another name, the Worker would take dead letters for events to write (collector/index.ts).
    expect(consumerOf(events)?.dead_letter_queue).toBe(DEAD_LETTER_QUEUE);
    // Unconsumed, they would wait unread until the queue's retention dropped them.
    expect(consumerOf(DEAD_LETTER_QUEUE)).toBeDefined();
  });
});
