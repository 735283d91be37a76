import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { adminCall as admin, newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const send = sendTraffic;

const answerFrom = (doc: string, version: string, over: Partial<TraceInput> = {}) =>
  trace({
    createdAt: Date.now() - 3_600_000,
    retrievedChunks: [{ chunkId: `${doc}#1`, sourceDocId: doc, sourceDocVersion: version, score: 0.9, rank: 1, text: `The text of ${doc}.` }],
    rerankedChunks: undefined,
    ...over,
  });

describe('stale documents and corrections', () => {
  it('flags a document whose answers go wrong far more often than the project, names its owner and keeps the evidence', async () => {
    const p = await newProject();
    const stale = Array.from({ length: 15 }, (_, i) => answerFrom('policies/returns.md', 'v2', { query: `return question ${i}` }));
    const fine = Array.from({ length: 30 }, (_, i) => answerFrom('shipping.md', 'v1', { query: `shipping question ${i}` }));
    // One reader per answer, as in real traffic; one reader downvoting 15 answers would be flooding.
    await send(
      p,
      [...stale, ...fine],
      [
        ...stale.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: 'thumbs_down' as const })),
        ...fine.map((t, i) => ({ traceId: t.traceId, sessionId: `f-${i}`, signalType: i % 6 ? ('thumbs_up' as const) : ('thumbs_down' as const) })),
      ],
    );
    expect(
      (
        await admin(p, '/owners', {
          method: 'PUT',
          json: {
            owners: [
              { pattern: 'policies/*', owner: 'policy-team' },
              { pattern: '*', owner: 'docs-team' },
            ],
          },
        })
      ).status,
    ).toBe(200);
    await runNightly(env, Date.now() + 1_000, { projectId: p.id });
    const { body } = await admin<{
      documents: { sourceDocId: string; sourceDocVersion: string; owner: string; reasons: string[]; evidenceTraceIds: string[] }[];
    }>(p, '/documents');
    expect(body.documents.map((d) => [d.sourceDocId, d.sourceDocVersion, d.owner])).toEqual([['policies/returns.md', '*', 'policy-team']]);
    expect(body.documents[0]!.reasons[0]).toContain('15 of 15 answers');
    expect(body.documents[0]!.evidenceTraceIds).toHaveLength(10);
    expect(stale.map((t) => t.traceId)).toEqual(expect.arrayContaining(body.documents[0]!.evidenceTraceIds));
  });

  it('does not flag a document on a handful of bad answers', async () => {
    const p = await newProject();
    const few = Array.from({ length: 4 }, (_, i) => answerFrom('faq.md', 'v1', { query: `faq ${i}` }));
    await send(
      p,
      few,
      few.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: 'thumbs_down' as const })),
    );
    await runNightly(env, Date.now() + 1_000, { projectId: p.id });
    expect((await admin<{ documents: unknown[] }>(p, '/documents')).body.documents).toEqual([]);
  });

  it('routes a correction to the owner of the document it names, and resolves it with a note', async () => {
    const p = await newProject();
    const t = trace({
      createdAt: Date.now() - 60_000,
      retrievedChunks: [
        { chunkId: 'a', sourceDocId: 'shipping.md', score: 0.9, rank: 1, text: 'Shipping takes 5 days.' },
        { chunkId: 'b', sourceDocId: 'refunds.md', score: 0.8, rank: 2, text: 'Refunds take 14 days.' },
      ],
      rerankedChunks: undefined,
    });
    await admin(p, '/owners', { method: 'PUT', json: { owners: [{ pattern: 'refunds.md', owner: 'payments' }] } });
    await send(
      p,
      [t],
      [{ traceId: t.traceId, signalType: 'correction', detail: { text: 'Refunds are paid within 14 days of the return arriving', source: 'refunds.md' } }],
    );
    await runNightly(env, Date.now() + 1_000, { projectId: p.id });
    const inbox = await admin<{ owners: { owner: string; corrections: { eventId: string; sourceDocId: string; text: string }[] }[] }>(p, '/corrections');
    expect(inbox.body.owners.map((o) => [o.owner, o.corrections.map((c) => c.sourceDocId)])).toEqual([['payments', ['refunds.md']]]);
    const id = inbox.body.owners[0]!.corrections[0]!.eventId;
    expect((await admin(p, `/corrections/${id}/resolve`, { method: 'POST', json: { note: 'Updated the refunds page' } })).status).toBe(200);
    expect((await admin<{ owners: unknown[] }>(p, '/corrections')).body.owners).toEqual([]);
    expect((await admin<{ owners: { corrections: { note: string }[] }[] }>(p, '/corrections?status=resolved')).body.owners[0]!.corrections[0]!.note).toBe(
      'Updated the refunds page',
    );
    expect((await admin(p, '/corrections/nope/resolve', { method: 'POST', json: { note: 'x' } })).status).toBe(404);
    expect(await admin(p, '/owners', { method: 'PUT', json: { owners: [{ pattern: '', owner: 'x' }] } })).toMatchObject({
      status: 400,
      body: { error: { field: 'owners[0].pattern' } },
    });
  });
});
