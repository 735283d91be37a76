import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../shared/schema/trace.ts';
import { utcDay } from '../../shared/time.ts';
import { DAY_COUNTS, DOCUMENT_COUNTS } from '../storage/sql/day-counts.ts';
import { newProject, nightsAfterNow, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;
/** 9:00 UTC a month ago: within the aggregates' retention whenever the test runs. */
const MADE = Date.parse(`${utcDay(Date.now() - 30 * DAY)}T09:00:00Z`);

const chunk = (chunkId: string, sourceDocId: string, sourceDocVersion: string | undefined, rank: number): Chunk => ({
  chunkId,
  sourceDocId,
  ...(sourceDocVersion !== undefined && { sourceDocVersion }),
  score: 1 - rank / 10,
  rank,
  text: `Text of ${chunkId}.`,
});

/** An answer of the day, `minute` minutes in, alone in its session unless it names one. */
const answer = (traceId: string, minute: number, retrievedChunks: Chunk[], rest: Partial<Parameters<typeof trace>[0]> = {}) =>
  trace({ traceId, sessionId: `s-${traceId}`, turnIndex: 0, createdAt: MADE + minute * 60_000, retrievedChunks, rerankedChunks: undefined, ...rest });

const documentRows = (projectId: string, day: string) =>
  env.DB.prepare(
    `select source_doc_id as doc, source_doc_versions as versions, ${DOCUMENT_COUNTS.join(', ')}, ${DOCUMENT_COUNTS.map((c) => `purged_${c}`).join(', ')}
     from document_days where project_id = ? and day = ? order by doc, versions`,
  )
    .bind(projectId, day)
    .all<Record<string, string | number>>()
    .then((r) => r.results);

const dayRow = (projectId: string, day: string) =>
  env.DB.prepare(`select ${DAY_COUNTS.join(', ')}, ${DAY_COUNTS.map((c) => `purged_${c}`).join(', ')} from day_stats where project_id = ? and day = ?`)
    .bind(projectId, day)
    .first<Record<string, number>>();

/** A row counted from stored answers alone (its `purged_` columns 0), as it is once they are purged: each count also in its `purged_` column. */
const moved = <R extends Record<string, unknown>>(row: R): R =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k.startsWith('purged_') ? row[k.slice('purged_'.length)] : v])) as R;

// README, "Retention and erasure": a day's documents' counts keep what its purged answers counted,
// retention adding them to the `purged_` columns as it purges them, and a day counted again is
// what is left plus those. So purging a day's answers leaves each document row's counts as they
// were, and its `purged_` columns equal to what the days stage counted of those answers.
describe("retention's purged document counts", () => {
  it('are what the days stage counted of the answers purged, for every count, document and set of versions', async () => {
    const p = await newProject();
    const day = utcDay(MADE);
    const unscored = answer('unscored', 0, [chunk('g1', 'guide.md', 'v1', 1), chunk('g1', 'guide.md', 'v1', 2)]);
    // Retrieval returned faq.md, the reranker dropped it: the model never saw it, so this answer does not count for it.
    const bad = answer('bad', 1, [chunk('g1', 'guide.md', 'v1', 1), chunk('g2', 'guide.md', 'v1', 2), chunk('f1', 'faq.md', undefined, 3)], {
      rerankedChunks: [chunk('g2', 'guide.md', 'v1', 1), chunk('g1', 'guide.md', 'v1', 2)],
    });
    const good = answer('good', 2, [chunk('g1', 'guide.md', 'v1', 1), chunk('m1', 'manual.md', 'v1', 2)]);
    // Scored, but neither clearly bad nor clearly good (a copied source scores 0.2).
    const middling = answer('middling', 6, [chunk('g1', 'guide.md', 'v1', 1)]);
    const reasked = answer('reasked', 3, [chunk('g1', 'guide.md', 'v1', 1)], { sessionId: 's-re' });
    const rephrased = answer('rephrased', 4, [chunk('f1', 'faq.md', undefined, 1)], { sessionId: 's-re', turnIndex: 1 });
    // Two versions of a document, a chunk without a version and one with '' (both stored as ''),
    // and a chunk the model saw twice, at two ranks; a third version retrieval returned, which the
    // reranker dropped, is not among the versions the answer cited.
    const shown = [
      chunk('m2', 'manual.md', 'v2', 1),
      chunk('m1', 'manual.md', 'v1', 2),
      chunk('m3', 'manual.md', undefined, 3),
      chunk('m4', 'manual.md', '', 4),
      chunk('m1', 'manual.md', 'v1', 5),
    ];
    const versions = answer('versions', 5, [...shown, chunk('m5', 'manual.md', 'v3', 6)], {
      rerankedChunks: shown,
    });
    const at = (t: { traceId: string; sessionId?: string; createdAt: number }, seconds: number) => ({
      traceId: t.traceId,
      sessionId: t.sessionId!,
      clientTs: t.createdAt + seconds * 1_000,
    });
    await sendTraffic(
      p,
      [unscored, bad, good, middling, reasked, rephrased, versions],
      [
        { ...at(bad, 20), signalType: 'thumbs_down' },
        { ...at(good, 20), signalType: 'thumbs_up' },
        { ...at(middling, 20), signalType: 'copy_source', detail: { chunkId: 'g1', chars: 40 } },
        { ...at(reasked, 20), signalType: 'rephrase_within_session', detail: { nextTraceId: rephrased.traceId, similarity: 0.8, gapMs: 40_000 } },
        { ...at(versions, 20), signalType: 'thumbs_down' },
      ],
    );
    // One answer arrived after the night's window closed: the days stage counts it for its day, with no stats row.
    await env.DB.prepare('update traces set received_at = ? where project_id = ? and trace_id = ?')
      .bind(Date.now() + DAY / 2, p.id, unscored.traceId)
      .run();
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const stats = await env.DB.prepare('select trace_id from trace_stats where project_id = ?').bind(p.id).all<{ trace_id: string }>();
    expect(stats.results.map((s) => s.trace_id).sort()).toEqual(['bad', 'good', 'middling', 'reasked', 'rephrased', 'versions']);

    // What the days stage counted: each answer once per document the model saw, in the row of the versions it cited.
    const zero = { purged_traces: 0, purged_scored: 0, purged_negative: 0, purged_positive: 0, purged_requeried: 0 };
    const counted = await documentRows(p.id, day);
    expect(counted).toEqual([
      { doc: 'faq.md', versions: '[""]', traces: 1, scored: 0, negative: 0, positive: 0, requeried: 0, ...zero },
      { doc: 'guide.md', versions: '["v1"]', traces: 5, scored: 4, negative: 2, positive: 1, requeried: 1, ...zero },
      { doc: 'manual.md', versions: '["","v1","v2"]', traces: 1, scored: 1, negative: 1, positive: 0, requeried: 0, ...zero },
      { doc: 'manual.md', versions: '["v1"]', traces: 1, scored: 1, negative: 0, positive: 1, requeried: 0, ...zero },
    ]);
    const countedDay = (await dayRow(p.id, day))!;
    expect(countedDay).toMatchObject({ traces: 7, negative: 3, requeried: 1, purged_traces: 0, purged_requeried: 0 });

    // Every answer of the day due: the next night purges them all.
    for (const table of ['traces', 'feedback_events'])
      await env.DB.prepare(`update ${table} set received_at = ? where project_id = ?`)
        .bind(Date.now() - 95 * DAY, p.id)
        .run();
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(await env.DB.prepare('select count(*) as n from traces where project_id = ?').bind(p.id).first()).toEqual({ n: 0 });
    expect(await documentRows(p.id, day)).toEqual(counted.map(moved));
    expect(await dayRow(p.id, day)).toEqual(moved(countedDay));

    // The day counted again (an answer imported for it, citing another document): what is left plus what was purged.
    await sendTraffic(p, [answer('imported', 30, [chunk('o1', 'other.md', 'v9', 1)])]);
    await runNightly(env, nightsAfterNow(2), { projects: [p.id] });
    expect(await documentRows(p.id, day)).toEqual([
      ...counted.map(moved),
      { doc: 'other.md', versions: '["v9"]', traces: 1, scored: 0, negative: 0, positive: 0, requeried: 0, ...zero },
    ]);
  });
});
