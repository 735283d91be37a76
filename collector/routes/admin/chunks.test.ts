import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ChunkUsage } from '../../../shared/admin-api/chunks.ts';
import { runNightly } from '../../jobs/nightly.ts';
import { adminCall as admin, bearer, call, newProject, sendTraffic, trace } from '../../test/fixtures.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const chunk = (chunkId: string, sourceDocId: string, rank: number) => ({ chunkId, sourceDocId, score: 1 - rank / 10, rank, text: `${chunkId} text` });

/**
 * 25 answers, each in its own session, all showing the same three chunks first and a fourth below
 * them: the generic one is never clicked, the refund one in 10 answers, the shipping one in 5 and
 * flagged as the wrong source in 3; the fourth, clicked in every answer, is never shown first.
 */
async function seedUse(p: Project) {
  const t0 = Date.now() - 3_600_000;
  const traces = Array.from({ length: 25 }, (_, i) =>
    trace({
      sessionId: `s-${i}`,
      query: `question number ${i} about opened items`,
      createdAt: t0 + i * 60_000,
      retrievedChunks: [
        chunk('generic-1', 'faq.md', 1),
        chunk('refund-1', 'refunds/policy.md', 2),
        chunk('shipping-1', 'shipping.md', 3),
        chunk('deep-1', 'faq.md', 4),
      ],
      rerankedChunks: undefined,
    }),
  );
  const on = (i: number, signalType: 'citation_click' | 'wrong_source', chunkId: string, after: number) => ({
    traceId: traces[i]!.traceId,
    sessionId: `s-${i}`,
    clientTs: traces[i]!.createdAt + after,
    signalType,
    detail: { chunkId },
  });
  const events = traces.flatMap((_, i) => [
    on(i, 'citation_click', 'deep-1', 20_000),
    ...(i < 10 ? [on(i, 'citation_click', 'refund-1', 25_000)] : []),
    ...(i >= 20 ? [on(i, 'citation_click', 'shipping-1', 30_000)] : []),
    ...(i >= 22 ? [on(i, 'wrong_source', 'shipping-1', 35_000)] : []),
  ]);
  await sendTraffic(p, traces, events as Parameters<typeof sendTraffic>[2]);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
}

const chunks = (p: Project, query = '', key = p.keys.admin) => call(`/v1/admin/chunks${query}`, { headers: bearer(key) });
const ids = (list: ChunkUsage[]) => list.map((c) => c.chunkId);

describe('GET /v1/admin/chunks', () => {
  it('lists the chunks shown often, least clicked first, with their counts and owner; or the most flagged first', async () => {
    const p = await newProject();
    expect((await admin(p, '/owners', { method: 'PUT', json: { owners: [{ pattern: 'refunds/*', owner: 'payments' }] } })).status).toBe(200);
    // Before any night: nothing counted yet.
    expect((await admin<{ chunks: ChunkUsage[] }>(p, '/chunks')).body).toEqual({ chunks: [] });
    await seedUse(p);

    const { status, body } = await admin<{ chunks: ChunkUsage[] }>(p, '/chunks');
    expect(status).toBe(200);
    // The fourth chunk, clicked the most, is never shown first: not listed.
    expect(body.chunks).toEqual([
      {
        chunkId: 'generic-1',
        sourceDocId: 'faq.md',
        owner: null,
        retrieved: 25,
        shown: 25,
        clicks: 0,
        ctr: 0,
        focusedDwells: 0,
        copies: 0,
        wrongSourceFlags: 0,
      },
      {
        chunkId: 'shipping-1',
        sourceDocId: 'shipping.md',
        owner: null,
        retrieved: 25,
        shown: 25,
        clicks: 5,
        ctr: 0.2,
        focusedDwells: 0,
        copies: 0,
        wrongSourceFlags: 3,
      },
      {
        chunkId: 'refund-1',
        sourceDocId: 'refunds/policy.md',
        owner: 'payments',
        retrieved: 25,
        shown: 25,
        clicks: 10,
        ctr: 0.4,
        focusedDwells: 0,
        copies: 0,
        wrongSourceFlags: 0,
      },
    ]);
    expect(ids((await admin<{ chunks: ChunkUsage[] }>(p, '/chunks?sort=flags')).body.chunks)).toEqual(['shipping-1', 'generic-1', 'refund-1']);
    expect(ids((await admin<{ chunks: ChunkUsage[] }>(p, '/chunks?limit=1')).body.chunks)).toEqual(['generic-1']);
    // Shown 25 times each: a minimum above that leaves none, one below the default lists them.
    expect((await admin<{ chunks: ChunkUsage[] }>(p, '/chunks?minShown=26')).body.chunks).toEqual([]);
    expect(ids((await admin<{ chunks: ChunkUsage[] }>(p, '/chunks?minShown=25&sort=ctr')).body.chunks)).toEqual(['generic-1', 'shipping-1', 'refund-1']);

    // A viewer key reads the same figures.
    const asViewer = await chunks(p, '?sort=flags', p.keys.viewer);
    expect(asViewer.status).toBe(200);
    expect(await asViewer.json()).toEqual((await admin(p, '/chunks?sort=flags')).body);
  });

  it('leaves out chunks shown first fewer times than the default minimum', async () => {
    const p = await newProject();
    await sendTraffic(
      p,
      Array.from({ length: 19 }, (_, i) => trace({ sessionId: `s-${i}`, retrievedChunks: [chunk('few-1', 'faq.md', 1)], rerankedChunks: undefined })),
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect((await admin(p, '/chunks')).body).toEqual({ chunks: [] });
    expect(ids((await admin<{ chunks: ChunkUsage[] }>(p, '/chunks?minShown=19')).body.chunks)).toEqual(['few-1']);
  });

  it('refuses a bad parameter with a 400 naming it', async () => {
    const p = await newProject();
    for (const [query, field] of [
      ['?minShown=0', 'query.minShown'],
      ['?minShown=abc', 'query.minShown'],
      ['?minShown=1.5', 'query.minShown'],
      ['?limit=1001', 'query.limit'],
      ['?limit=0', 'query.limit'],
      ['?sort=clicks', 'query.sort'],
      ['?sort=ctr&sort=flags', 'query.sort'],
      ['?order=ctr', 'query.order'],
    ]) {
      const res = await chunks(p, query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_query', field } });
    }
  });
});
