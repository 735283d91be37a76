import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { adminCall as admin, newProject, nightsAfterNow, sendTraffic as send, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const start = Date.UTC(2026, 10, 2, 10);
const refund = (version: string, text: string) => ({ chunkId: 'refund-1', sourceDocId: 'refunds.md', sourceDocVersion: version, score: 0.9, rank: 1, text });
const OLD = 'Opened items can be refunded within 14 days of delivery.';
const NEW = 'Opened items can be refunded within 30 days of delivery.';

type Item = { id: string; status: string; verdict: string | null; chunk: { chunkId: string; sourceDocVersion: string | null; text: string } };

/** One bad answer to the refund question, retrieving the refund chunk as `chunk` has it. */
const badAnswer = (user: string, chunk: ReturnType<typeof refund>, at: number) => ({
  trace: trace({
    traceId: `t-${user}`,
    sessionId: `s-${user}`,
    query: 'refund for opened items?',
    retrievedChunks: [chunk],
    rerankedChunks: undefined,
    createdAt: at,
  }),
  events: [{ eventId: `e-${user}`, traceId: `t-${user}`, sessionId: `s-${user}`, signalType: 'thumbs_down' as const, clientTs: at + 60_000 }],
});

describe('a review item whose document was updated after it was mined', () => {
  it('shows the text and version together, and an answered item keeps the ones its verdict was given on', async () => {
    const p = await newProject();
    const first = badAnswer('a', refund('v1', OLD), start);
    await send(p, [first.trace], first.events);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const [item] = (await admin<{ items: Item[] }>(p, '/review')).body.items;
    expect(item!.chunk).toMatchObject({ chunkId: 'refund-1', sourceDocVersion: 'v1', text: OLD });
    expect((await admin(p, `/review/${item!.id}`, { method: 'POST', json: { verdict: 'relevant' } })).status).toBe(200);

    // The document is updated; the next day's answer retrieves the new text of the same chunk.
    const second = badAnswer('b', refund('v2', NEW), start + 86_400_000);
    await send(p, [second.trace], second.events);
    expect((await runNightly(env, nightsAfterNow(1), { projects: [p.id] })).done).toBe(true);
    const judged = (await admin<Item>(p, `/review/${item!.id}`)).body;
    expect(judged).toMatchObject({ status: 'answered', verdict: 'relevant' });
    expect(judged.chunk).toMatchObject({ sourceDocVersion: 'v1', text: OLD });

    // Taken back, it waits again on what the users now get: the new text, named by its version.
    await admin(p, `/review/${item!.id}`, { method: 'POST', json: { verdict: null } });
    const third = badAnswer('c', refund('v2', NEW), start + 2 * 86_400_000);
    await send(p, [third.trace], third.events);
    expect((await runNightly(env, nightsAfterNow(2), { projects: [p.id] })).done).toBe(true);
    expect((await admin<Item>(p, `/review/${item!.id}`)).body.chunk).toMatchObject({ sourceDocVersion: 'v2', text: NEW });
  });
});
