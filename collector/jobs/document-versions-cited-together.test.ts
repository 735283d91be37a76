/** Stale documents when an answer cites two versions of a document at once, as during a re-index. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { flaggedDocuments } from '../storage/documents.ts';
import { newProject, sendTraffic as send, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const HOUR = 3_600_000;

const chunkOf = (doc: string, version: string) => ({
  chunkId: `${doc}@${version}#1`,
  sourceDocId: doc,
  sourceDocVersion: version,
  score: 0.9,
  text: `${doc} ${version}.`,
});

/** An answer citing the given versions of manual.md (guide.md when none), `hoursAgo` hours before now. */
const answer = (query: string, versions: readonly string[], hoursAgo = 1): TraceInput =>
  trace({
    query,
    createdAt: Date.now() - hoursAgo * HOUR,
    retrievedChunks: (versions.length ? versions.map((v) => chunkOf('manual.md', v)) : [chunkOf('guide.md', 'v1')]).map((c, i) => ({ ...c, rank: i + 1 })),
    rerankedChunks: undefined,
  });

const countsOf = async (projectId: string) =>
  Object.fromEntries(
    (await flaggedDocuments(env.DB, projectId)).map((f) => [
      f.sourceDocVersion,
      { scored: f.counts.scored, negative: f.counts.negative, recent: f.counts.recent, reason: f.reasons[0]?.split(' (')[0] },
    ]),
  );

/** The bad answers voted down, beside 40 good ones voted up elsewhere, then a night's run. */
async function judge(p: Awaited<ReturnType<typeof newProject>>, bad: ReturnType<typeof answer>[]) {
  const good = Array.from({ length: 40 }, (_, i) => answer(`guide question ${i}`, []));
  await send(p, good);
  await send(p, bad, [
    ...bad.map((t, i) => ({ traceId: t.traceId, sessionId: `b-${i}`, signalType: 'thumbs_down' as const })),
    ...good.map((t, i) => ({ traceId: t.traceId, sessionId: `g-${i}`, signalType: 'thumbs_up' as const })),
  ]);
  await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
}

describe('an answer citing several versions of a document', () => {
  it('counts once for the document, and once for each version it cited', async () => {
    const p = await newProject();
    // Twelve bad answers citing both v1 and v2 (both current: cited today), four citing v2 alone.
    const both = Array.from({ length: 12 }, (_, i) => answer(`manual question ${i}`, ['v1', 'v2']));
    const v2 = Array.from({ length: 4 }, (_, i) => answer(`manual v2 question ${i}`, ['v2']));
    await judge(p, [...both, ...v2]);
    expect(await countsOf(p.id)).toEqual({
      '*': { scored: 16, negative: 16, recent: 16, reason: '16 of 16 answers citing it were bad' },
      v1: { scored: 12, negative: 12, recent: 12, reason: '12 of 12 answers citing it were bad' },
      v2: { scored: 16, negative: 16, recent: 16, reason: '16 of 16 answers citing it were bad' },
    });
  });

  it('counts once in the re-asks over all versions, the old one cited with the new one', async () => {
    const p = await newProject();
    // Yesterday six answers cited v1 and v2 together; today six cite v2 alone, the document's current version.
    const both = Array.from({ length: 6 }, (_, i) => answer(`manual question ${i}`, ['v1', 'v2'], 25));
    const v2 = Array.from({ length: 6 }, (_, i) => answer(`manual v2 question ${i}`, ['v2']));
    await judge(p, [...both, ...v2]);
    // v2 alone is current, so the document is judged once, on v2's twelve answers; its answers of the recent days are twelve too.
    expect(await countsOf(p.id)).toEqual({ '*': { scored: 12, negative: 12, recent: 12, reason: '12 of 12 answers citing it were bad' } });
  });
});
