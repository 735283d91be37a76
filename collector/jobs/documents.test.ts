import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { utcDay } from '../../shared/time.ts';
import { flaggedDocuments } from '../storage/documents.ts';
import { runOf } from '../storage/loop-runs.ts';
import { settingsOf } from '../storage/loop-settings.ts';
import { adminCall as admin, newProject, planOf, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';
import { COUNTS_SQL, documents, documentsStage, EVIDENCE_SQL, PAGE_SQL } from './stages/documents.ts';
import { BULK_FROM_TRACES, BULK_SHARE, TRACES_PER_SLICE } from './stages/stage.ts';

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

const DAY = 86_400_000;
/** Readers judging the answers: a few answers each, never enough downvotes to look like flooding. */
const READERS = 12;

/**
 * A knowledge base of seven documents (one of them in two versions), each answer citing one: a, e
 * and g go wrong on every answer, as does c's second version; b, d and f, and c's first version,
 * mostly go right.
 */
async function knowledgeBase() {
  const p = await newProject();
  const answers = (doc: string, version: string, bad: number, good: number) =>
    Array.from({ length: bad + good }, (_, i) => ({ t: answerFrom(doc, version, { query: `${doc} ${version} question ${i}` }), bad: i < bad }));
  const all = [
    ...answers('a-stale.md', 'v1', 10, 0),
    ...answers('b-fine.md', 'v1', 2, 18),
    ...answers('c-versions.md', 'v1', 0, 10),
    ...answers('c-versions.md', 'v2', 10, 0),
    ...answers('d-fine.md', 'v1', 2, 18),
    ...answers('e-stale.md', 'v4', 10, 0),
    ...answers('f-fine.md', 'v1', 2, 18),
    ...answers('g-stale.md', 'v1', 10, 0),
  ];
  for (let i = 0; i < all.length; i += 50)
    await sendTraffic(
      p,
      all.slice(i, i + 50).map((a) => a.t),
    );
  await sendTraffic(
    p,
    [],
    all.map(({ t, bad }, i) => ({ traceId: t.traceId, sessionId: `r-${i % READERS}`, signalType: bad ? ('thumbs_down' as const) : ('thumbs_up' as const) })),
  );
  return p;
}

/** The flags as a later night must find them again: all but the night that last raised them. */
const flagsOf = async (projectId: string) =>
  (await flaggedDocuments(env.DB, projectId))
    .map(({ lastFlagged, ...flag }) => flag)
    .sort((a, b) => `${a.sourceDocId} ${a.sourceDocVersion}`.localeCompare(`${b.sourceDocId} ${b.sourceDocVersion}`));

/** A flag left by an earlier night. */
const oldFlag = (projectId: string, docId: string, version = '*') =>
  env.DB.prepare(
    `insert into document_flags (project_id, source_doc_id, source_doc_version, reasons, counts, negative_p, requery_p, evidence, first_flagged, last_flagged)
     values (?, ?, ?, '["stale"]', '{}', 0.001, null, '[]', '2026-01-01', '2026-01-01')`,
  )
    .bind(projectId, docId, version)
    .run();

/**
 * Flags no night would raise now: of documents seen but fine (b, c's first version), and of
 * documents gone from the window, before the first, between two and after the last.
 */
async function leaveOldFlags(projectId: string) {
  for (const [docId, version] of [['0-gone.md'], ['b-fine.md'], ['c-versions.md', 'v1'], ['d2-gone.md'], ['zz-gone.md']] as const)
    await oldFlag(projectId, docId, version);
}

/** Runs the documents stage `documentsPerSlice` documents at a time for the rest of the test. */
const pagedBy = (documentsPerSlice: number) => vi.spyOn(documents, 'slice').mockImplementation(documentsStage(documentsPerSlice).slice);

const documentSlices = (summary: Awaited<ReturnType<typeof runNightly>>) => summary.runs[0]!.stages.find((s) => s.name === 'documents')!.slices;

describe('the stale-document tests in slices of documents', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('flags a knowledge base judged a few documents a slice as one judged in one slice', async () => {
    const p = await knowledgeBase();
    const now = Date.now() + 1_000;
    expect(documentSlices(await runNightly(env, now, { projectId: p.id }))).toBe(1);
    const whole = await flagsOf(p.id);
    expect(whole.map((f) => `${f.sourceDocId} ${f.sourceDocVersion}`)).toEqual(['a-stale.md *', 'c-versions.md v2', 'e-stale.md *', 'g-stale.md *']);
    pagedBy(2);
    // Pages a b, c d, e f, g: the night after, on the same rows.
    expect(documentSlices(await runNightly(env, now + DAY, { projectId: p.id }))).toBe(4);
    expect(await flagsOf(p.id)).toEqual(whole);
    // Every flag was written again by the paged night, not left from the first.
    const paged = await flaggedDocuments(env.DB, p.id);
    expect(paged.map((f) => f.lastFlagged)).toEqual(whole.map(() => utcDay(now + DAY)));
  });

  it.each([
    [1, 8],
    [2, 4],
    [3, 3],
    [7, 2],
  ])('clears flags no longer significant or of documents no longer seen, in every page and past the last (%i a slice)', async (perSlice, slices) => {
    const p = await knowledgeBase();
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projectId: p.id });
    const current = await flagsOf(p.id);
    await leaveOldFlags(p.id);
    expect(await flagsOf(p.id)).toHaveLength(current.length + 5);
    pagedBy(perSlice);
    // A full last page is followed by an empty slice: it still owns the ids after it.
    expect(documentSlices(await runNightly(env, now + DAY, { projectId: p.id }))).toBe(slices);
    expect(await flagsOf(p.id)).toEqual(current);
  });

  it('ends a run cut after every slice where an uncut one ends, and a second run, or a slice done again, changes nothing', async () => {
    const p = await knowledgeBase();
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projectId: p.id });
    const current = await flagsOf(p.id);
    await leaveOldFlags(p.id);
    pagedBy(2);
    let summary: Awaited<ReturnType<typeof runNightly>>;
    while (!(summary = await runNightly(env, now + DAY, { projectId: p.id, maxSlices: 1 })).done);
    expect(documentSlices(summary)).toBe(4);
    expect(await flagsOf(p.id)).toEqual(current);
    const done = await flaggedDocuments(env.DB, p.id);
    expect(done.every((f) => f.lastFlagged === utcDay(now + DAY))).toBe(true);
    expect((await runNightly(env, now + DAY + 60_000, { projectId: p.id })).done).toBe(true);
    expect(await flaggedDocuments(env.DB, p.id)).toEqual(done);
    // An invocation that stopped before saving its cursor does the slice again.
    const ctx = {
      db: env.DB,
      projectId: p.id,
      night: utcDay(now + DAY),
      now: now + DAY,
      settings: await settingsOf(env.DB, p.id),
      run: (await runOf(env.DB, p.id, utcDay(now + DAY)))!,
      tracesPerSlice: TRACES_PER_SLICE,
      bulk: { fromTraces: BULK_FROM_TRACES, share: BULK_SHARE },
    };
    expect(await documentsStage(2).slice(ctx, 'b-fine.md')).toEqual({ cursor: 'd-fine.md', counts: { documents: 5, flagged: 1 } });
    expect(await flaggedDocuments(env.DB, p.id)).toEqual(done);
  });
});

describe("the stale-document slice's plan", () => {
  it("reads its documents' rows on the primary key, from the cursor on, never the whole project", async () => {
    const page = await planOf(PAGE_SQL, 'p', 'c-versions.md', '2026-10-01', 2_000);
    expect(page).toContainEqual(
      expect.stringMatching(/^SEARCH document_days USING COVERING INDEX sqlite_autoindex_document_days_1 \(project_id=\? AND source_doc_id>\?\)$/),
    );
    const counts = await planOf(COUNTS_SQL, 'p', 'c-versions.md', 'f-fine.md', '2026-10-01', '2026-11-01');
    const reads = counts.filter((step) => /document_days/.test(step));
    expect(reads).toEqual([
      expect.stringMatching(/^SEARCH document_days USING INDEX sqlite_autoindex_document_days_1 \(project_id=\? AND source_doc_id>\? AND source_doc_id<\?\)$/),
      expect.stringMatching(/^SEARCH document_days USING INDEX sqlite_autoindex_document_days_1 \(project_id=\? AND source_doc_id>\? AND source_doc_id<\?\)$/),
    ]);
  });

  it("reads a flag's evidence from its document's chunk rows, never the project's answers in score order", async () => {
    const plan = await planOf(EVIDENCE_SQL, 'p', 'a-stale.md', null, 0, -0.3, 10);
    expect(plan.slice(0, 2)).toEqual([
      expect.stringMatching(/^SEARCH c USING INDEX trace_chunks_doc \(project_id=\? AND source_doc_id=\?\)$/),
      expect.stringMatching(/^SEARCH s USING INDEX sqlite_autoindex_trace_stats_1 \(project_id=\? AND trace_id=\?\)$/),
    ]);
  });
});
