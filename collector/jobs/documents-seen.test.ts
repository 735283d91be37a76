import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Chunk, TraceInput } from '../../shared/schema/trace.ts';
import { flaggedDocuments } from '../storage/documents.ts';
import { newProject, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const chunk = (sourceDocId: string, rank: number): Chunk => ({
  chunkId: `${sourceDocId}#1`,
  sourceDocId,
  sourceDocVersion: 'v1',
  score: 1 - rank / 10,
  rank,
  text: `The text of ${sourceDocId}.`,
});

const answer = (query: string, over: Partial<TraceInput>) => trace({ query, createdAt: Date.now() - 3_600_000, rerankedChunks: undefined, ...over });

// README, "Stale documents": an answer counts for the documents the model saw, the reranked chunks
// when a reranker ran, else the retrieved ones; a document the reranker dropped was never shown.
describe('the documents an answer counts for', () => {
  it('are those the model saw: a document retrieved but dropped by the reranker gets neither counts nor a flag', async () => {
    const { p, stale } = await droppedByTheReranker();
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });

    expect(await documentCounts(p.id)).toEqual(SEEN);
    const flags = await flaggedDocuments(env.DB, p.id);
    expect(flags.map((f) => f.sourceDocId)).toEqual(['returns.md']);
    expect(stale.map((t) => t.traceId)).toEqual(expect.arrayContaining(flags[0]!.evidenceTraceIds));
  });

  it('are counted again by the next run over the days counted before (migration 0047)', async () => {
    const { p } = await droppedByTheReranker();
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projects: [p.id] });
    // As the day was counted before: dropped.md with every answer retrieval returned it for.
    await env.DB.prepare(`update document_days set traces = 18, scored = 18, negative = 15 where project_id = ? and source_doc_id = 'dropped.md'`)
      .bind(p.id)
      .run();
    // The migration, on this project's rows alone (other test files share the database).
    const [update] = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0047_'))!.queries;
    expect(update).toMatch(/\nUPDATE `document_days` SET `worst` = null WHERE [^;]*;?\s*$/);
    await env.DB.prepare(`${update!.replace(/;\s*$/, '')} and project_id = ?`)
      .bind(p.id)
      .run();
    await runNightly(env, now + DAY, { projects: [p.id] });
    expect(await documentCounts(p.id)).toEqual(SEEN);
    expect((await flaggedDocuments(env.DB, p.id)).map((f) => f.sourceDocId)).toEqual(['returns.md']);
  });
});

const DAY = 86_400_000;

/** What droppedByTheReranker's answers count for each document. */
const SEEN = [
  { doc: 'dropped.md', traces: 3, scored: 3, negative: 0 },
  { doc: 'returns.md', traces: 15, scored: 15, negative: 15 },
  { doc: 'shipping.md', traces: 30, scored: 30, negative: 5 },
];

const documentCounts = (projectId: string) =>
  env.DB.prepare(
    'select source_doc_id as doc, sum(traces) as traces, sum(scored) as scored, sum(negative) as negative from document_days where project_id = ? group by 1 order by 1',
  )
    .bind(projectId)
    .all()
    .then((r) => r.results);

/**
 * A project whose 15 answers all go wrong, each showing returns.md: retrieval also returned
 * dropped.md, which the reranker dropped. Three answers without a reranker show dropped.md and go
 * right, 30 show shipping.md, 5 of them going wrong.
 */
async function droppedByTheReranker() {
  const p = await newProject();
  // Retrieval returns returns.md and dropped.md, the reranker keeps returns.md alone: every answer goes wrong.
  const stale = Array.from({ length: 15 }, (_, i) =>
    answer(`return question ${i}`, { retrievedChunks: [chunk('returns.md', 1), chunk('dropped.md', 2)], rerankedChunks: [chunk('returns.md', 1)] }),
  );
  // Without a reranker the model saw what retrieval returned: these count for dropped.md.
  const unranked = Array.from({ length: 3 }, (_, i) => answer(`dropped question ${i}`, { retrievedChunks: [chunk('dropped.md', 1)] }));
  const fine = Array.from({ length: 30 }, (_, i) => answer(`shipping question ${i}`, { retrievedChunks: [chunk('shipping.md', 1)] }));
  await sendTraffic(
    p,
    [...stale, ...unranked, ...fine],
    [
      ...stale.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: 'thumbs_down' as const })),
      ...unranked.map((t, i) => ({ traceId: t.traceId, sessionId: `u-${i}`, signalType: 'thumbs_up' as const })),
      ...fine.map((t, i) => ({ traceId: t.traceId, sessionId: `f-${i}`, signalType: i % 6 ? ('thumbs_up' as const) : ('thumbs_down' as const) })),
    ],
  );
  return { p, stale };
}
