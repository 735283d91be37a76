/** A correction is routed by the document it names that its answers showed, else by the top-ranked one the answer it is about showed. */
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { correctionsListed } from '../test/corrections.ts';
import { newProject, sendTraffic as send, trace } from '../test/fixtures.ts';
import { signedInMidConversation } from '../test/sessions.ts';
import { runNightly } from './nightly.ts';

it('routes a correction naming no document by the top-ranked document of its answer', async () => {
  const p = await newProject();
  // No reranker: the answer showed what retrieval returned, refunds.md first.
  const t = trace({
    sessionId: 'ranked',
    createdAt: Date.now() - 60_000,
    retrievedChunks: [
      { chunkId: 'c2', sourceDocId: 'shipping.md', score: 0.71, rank: 2, text: 'Shipping takes 3-5 days.' },
      { chunkId: 'c1', sourceDocId: 'refunds.md', score: 0.82, rank: 1, text: 'Opened items can be returned within 14 days.' },
      { chunkId: 'c3', sourceDocId: 'returns.md', score: 0.6, rank: 3, text: 'Returns need a receipt.' },
    ],
    rerankedChunks: undefined,
  });
  await send(p, [t], [{ traceId: t.traceId, sessionId: 'ranked', signalType: 'correction', detail: { text: 'Refunds take 30 days now' } }]);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  expect((await correctionsListed(p)).map((c) => c.sourceDocId)).toEqual(['refunds.md']);
});

it('routes a correction naming a document retrieval returned but the reranker dropped by the document the answer showed', async () => {
  const p = await newProject();
  // Retrieval returned refunds.md and shipping.md; the reranker kept refunds.md alone.
  const t = trace({ sessionId: 'dropped', createdAt: Date.now() - 60_000 });
  await send(
    p,
    [t],
    [{ traceId: t.traceId, sessionId: 'dropped', signalType: 'correction', detail: { text: 'Shipping takes a week now', source: 'shipping.md' } }],
  );
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  expect((await correctionsListed(p)).map((c) => c.sourceDocId)).toEqual(['refunds.md']);
});

it('routes a correction moved onto an earlier answer by a document it names that only the answer it was sent on showed', async () => {
  const p = await newProject();
  const { first, theirs, correction } = signedInMidConversation();
  const citing = (t: TraceInput, sourceDocId: string): TraceInput => ({ ...t, retrievedChunks: t.retrievedChunks.map((c) => ({ ...c, sourceDocId })) });
  const named = {
    traceId: theirs.traceId,
    sessionId: correction.sessionId,
    clientTs: correction.clientTs,
    signalType: 'correction' as const,
    detail: { text: 'Your earlier answer was wrong: opened items get a refund within 14 days, not store credit', source: 'shipping.md' },
  };
  await send(p, [citing(first, 'credit.md'), citing(theirs, 'shipping.md')], [named]);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
  expect((await correctionsListed(p)).map((c) => [c.traceId, c.sourceDocId])).toEqual([[first.traceId, 'shipping.md']]);
});
