import { describe, expect, it } from 'vitest';
import { createTraceClient } from '../../client/index.ts';
import { collector, keys, newTraceId } from './helpers.ts';

describe('the trace client in Node, against the collector under wrangler dev', () => {
  it('logs traces in a batch and they read back whole', async () => {
    const client = createTraceClient({ endpoint: collector(), serverKey: keys().server, batchSize: 10, flushIntervalMs: 50 });
    const ids = [newTraceId('node'), newTraceId('node')];
    const results = await Promise.all(
      ids.map((traceId, i) =>
        client.logTrace({
          traceId,
          query: `question ${i}`,
          retrievedChunks: [{ chunkId: `c${i}`, sourceDocId: 'doc.md', score: 0.9, rank: 1, text: 'text' }],
          answer: 'answer',
          model: 'node-test',
          sessionId: 'node-session',
          turnIndex: i,
          createdAt: Date.now(),
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['accepted', 'accepted']);
    const res = await fetch(`${collector()}/v1/traces/${ids[1]}`, { headers: { authorization: `Bearer ${keys().admin}` } });
    const body = (await res.json()) as { trace: { turnIndex: number; model: string }; retrievedChunks: { chunkId: string }[] };
    expect(body.trace).toMatchObject({ turnIndex: 1, model: 'node-test' });
    expect(body.retrievedChunks.map((c) => c.chunkId)).toEqual(['c1']);
  });
});
