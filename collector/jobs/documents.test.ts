import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { DAY_MS, utcDay } from '../../shared/time.ts';
import { documentWindowAfter, recentWindowAfter } from '../loop/documents.ts';
import { flaggedDocuments } from '../storage/documents.ts';
import { runOf } from '../storage/loop-runs.ts';
import { settingsOf } from '../storage/loop-settings.ts';
import { adminCall as admin, newProject, nightsAfterNow, planOf, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';
import { COUNTS_SQL, documents, documentsStage, PAGE_SQL, WORST_SQL } from './stages/documents.ts';
import { UNLISTED_DAYS_SQL } from './stages/prepare.ts';
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
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const { body } = await admin<{
      documents: { sourceDocId: string; sourceDocVersion: string; owner: string; failed: string[]; reasons: string[]; evidenceTraceIds: string[] }[];
    }>(p, '/documents');
    expect(body.documents.map((d) => [d.sourceDocId, d.sourceDocVersion, d.owner])).toEqual([['policies/returns.md', '*', 'policy-team']]);
    expect(body.documents[0]!.failed).toEqual(['badAnswers']);
    expect(body.documents[0]!.reasons[0]).toContain('15 of 15 answers');
    expect(body.documents[0]!.evidenceTraceIds).toHaveLength(10);
    expect(stale.map((t) => t.traceId)).toEqual(expect.arrayContaining(body.documents[0]!.evidenceTraceIds));
  });

  it('shows as evidence the worst answers of every day and version citing the document, each once, as reading them all would', async () => {
    const p = await newProject();
    const ago = (hours: number) => Date.now() - hours * 3_600_000;
    const cite = (version: string) => ({
      chunkId: `manual-${version}`,
      sourceDocId: 'manual.md',
      sourceDocVersion: version,
      score: 0.9,
      text: `Manual ${version}.`,
    });
    // 24 bad answers over two days and both versions, some citing both; 40 good ones elsewhere for the baseline.
    const bad = Array.from({ length: 24 }, (_, i) =>
      trace({
        query: `manual question ${i}`,
        createdAt: ago(i % 2 ? 1 : 26),
        retrievedChunks: (i % 3 === 0 ? [cite('v1'), cite('v2')] : [cite(i % 3 === 1 ? 'v1' : 'v2')]).map((c, rank) => ({ ...c, rank: rank + 1 })),
        rerankedChunks: undefined,
      }),
    );
    const good = Array.from({ length: 40 }, (_, i) => answerFrom('guide.md', 'v1', { query: `guide question ${i}` }));
    await send(p, good);
    await send(p, bad, [
      // Some answers are rated two stars instead, so that scores differ.
      ...bad.map((t, i) =>
        i % 4
          ? { traceId: t.traceId, sessionId: `b-${i}`, signalType: 'thumbs_down' as const }
          : { traceId: t.traceId, sessionId: `b-${i}`, signalType: 'rating' as const, detail: { stars: 2 } },
      ),
      ...good.map((t, i) => ({ traceId: t.traceId, sessionId: `g-${i}`, signalType: 'thumbs_up' as const })),
    ]);
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projects: [p.id] });
    const flags = await flaggedDocuments(env.DB, p.id);
    expect(flags.map((f) => f.sourceDocVersion).sort()).toEqual(['*', 'v1', 'v2']);
    // What reading every answer citing it gives, worst first (ties in trace id order).
    const { results: answers } = await env.DB.prepare(
      `select distinct s.trace_id as traceId, s.weighted_score as score, coalesce(c.source_doc_version, '') as version
       from trace_chunks c join trace_stats s on s.project_id = c.project_id and s.trace_id = c.trace_id
       where c.project_id = ? and c.source_doc_id = 'manual.md' and s.trusted_signals > 0 and s.weighted_score <= ?`,
    )
      .bind(p.id, (await settingsOf(env.DB, p.id)).badTraceScore)
      .all<{ traceId: string; score: number; version: string }>();
    expect(new Set(answers.map((a) => a.score)).size).toBeGreaterThan(1);
    const worst = (version: string) =>
      [
        ...new Set(
          answers
            .filter((a) => version === '*' || a.version === version)
            .sort((a, b) => a.score - b.score || (a.traceId < b.traceId ? -1 : 1))
            .map((a) => a.traceId),
        ),
      ].slice(0, 10);
    for (const flag of flags) expect(flag.evidenceTraceIds, flag.sourceDocVersion).toEqual(worst(flag.sourceDocVersion));
    // Both days and both versions are among the whole document's evidence.
    const shown = bad.filter((t) => flags.find((f) => f.sourceDocVersion === '*')!.evidenceTraceIds.includes(t.traceId));
    expect(new Set(shown.map((t) => t.createdAt > ago(12))).size).toBe(2);
    expect(new Set(shown.flatMap((t) => t.retrievedChunks.map((c) => c.sourceDocVersion))).size).toBe(2);
  });

  it('counts again the days of the window that have no list of worst answers, and only those', async () => {
    const { p } = await staleReturns(15);
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projects: [p.id] });
    const before = await flaggedDocuments(env.DB, p.id);
    expect(before[0]!.evidenceTraceIds).toHaveLength(10);
    // As the days were before lists were kept, with a day older than the window that must stay as it is.
    const old = utcDay(now - 40 * DAY);
    await env.DB.batch([
      env.DB.prepare('update document_days set worst = null where project_id = ?').bind(p.id),
      env.DB.prepare(`update document_flags set evidence = '[]' where project_id = ?`).bind(p.id),
      env.DB.prepare(
        `insert into document_days (project_id, source_doc_id, source_doc_versions, day, traces, scored, negative, positive, requeried) values (?, 'policies/returns.md', '["v2"]', ?, 7, 7, 7, 0, 0)`,
      ).bind(p.id, old),
    ]);
    const summary = await runNightly(env, now + DAY, { projects: [p.id] });
    // No new traffic: the one day of the window with answers is counted because it has no list.
    expect(summary.runs[0]!.stages.find((s) => s.name === 'days')!.counts.days).toBe(1);
    expect((await flaggedDocuments(env.DB, p.id)).map((f) => f.evidenceTraceIds)).toEqual(before.map((f) => f.evidenceTraceIds));
    expect(await env.DB.prepare('select traces, worst from document_days where project_id = ? and day = ?').bind(p.id, old).first()).toEqual({
      traces: 7,
      worst: null,
    });
    // Lists kept now, the next night counts only its own days again.
    const next = await runNightly(env, now + 2 * DAY, { projects: [p.id] });
    expect(next.runs[0]!.stages.find((s) => s.name === 'days')!.counts.days ?? 0).toBe(0);
  });

  it('keeps counting those days again when the run that listed them is left unfinished after some', async () => {
    const p = await newProject();
    const answers = [1, 25].flatMap((hours) =>
      Array.from({ length: 12 }, (_, i) =>
        answerFrom('manual.md', 'v1', { query: `manual question ${hours} ${i}`, createdAt: Date.now() - hours * 3_600_000 }),
      ),
    );
    await send(
      p,
      answers,
      answers.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: 'thumbs_down' as const })),
    );
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projects: [p.id] });
    await env.DB.prepare('update document_days set worst = null where project_id = ?').bind(p.id).run();
    const unlisted = async () =>
      (await env.DB.prepare('select count(*) as n from document_days where project_id = ? and worst is null').bind(p.id).first<{ n: number }>())!.n;
    expect(await unlisted()).toBe(2);
    // The next night's run stops once it has counted one of the two days again, and is left.
    for (let i = 0; (await unlisted()) === 2; i++) {
      expect(i).toBeLessThan(60);
      await runNightly(env, now + DAY, { projects: [p.id], maxSlices: 1 });
    }
    expect(await unlisted()).toBe(1);
    expect((await runNightly(env, now + 2 * DAY, { projects: [p.id] })).done).toBe(true);
    expect(await unlisted()).toBe(0);
  });

  it("fills a day's list again from the answers left after an erasure, at the next run", async () => {
    // Twelve users, one bad answer each: the flag shows ten of them.
    const { p, stale } = await staleReturns(12, (i) => ({ userIdHash: `u-${i}` }));
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projects: [p.id] });
    const evidence = async () => (await flaggedDocuments(env.DB, p.id))[0]!.evidenceTraceIds;
    const shown = await evidence();
    expect(shown).toHaveLength(10);
    const gone = stale.find((t) => t.traceId === shown[0])!;
    expect((await admin(p, `/users/${gone.userIdHash}`, { method: 'DELETE' })).status).toBe(200);
    expect(await evidence()).toEqual(shown.slice(1));
    await runNightly(env, now + DAY, { projects: [p.id] });
    const after = await evidence();
    expect(after).toHaveLength(10);
    expect(after).not.toContain(gone.traceId);
    expect(after.slice(0, 9)).toEqual(shown.slice(1));
  });

  it('keeps no list for a day whose answers are past a retention shorter than the window, and never counts that day again', async () => {
    const p = await newProject();
    expect((await admin(p, '/settings', { method: 'PUT', json: { retentionDays: 5 } })).status).toBe(200);
    // Answers of ten days ago that arrived a day later: past the retention by arrival.
    const made = Date.now() - 10 * DAY;
    const old = Array.from({ length: 12 }, (_, i) => answerFrom('faq.md', 'v1', { query: `faq ${i}`, createdAt: made }));
    await send(
      p,
      old,
      old.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: 'thumbs_down' as const })),
    );
    for (const table of ['traces', 'feedback_events'])
      await env.DB.prepare(`update ${table} set received_at = received_at - ? where project_id = ?`)
        .bind(9 * DAY, p.id)
        .run();
    const day = utcDay(made);
    const row = () => env.DB.prepare('select traces, negative, worst from document_days where project_id = ? and day = ?').bind(p.id, day).first();
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(await count('traces')).toBe(0);
    expect(await row()).toEqual({ traces: 12, negative: 12, worst: '[]' });
    // Made to look counted before lists were kept: still not counted again, its answers being gone.
    await env.DB.prepare('update document_days set worst = null where project_id = ? and day = ?').bind(p.id, day).run();
    const next = await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(next.runs[0]!.stages.find((s) => s.name === 'days')!.counts.days ?? 0).toBe(0);
    expect(await row()).toEqual({ traces: 12, negative: 12, worst: null });

    async function count(table: string) {
      return (await env.DB.prepare(`select count(*) as n from ${table} where project_id = ?`).bind(p.id).first<{ n: number }>())!.n;
    }
  });

  it('does not flag a document on a handful of bad answers', async () => {
    const p = await newProject();
    const few = Array.from({ length: 4 }, (_, i) => answerFrom('faq.md', 'v1', { query: `faq ${i}` }));
    await send(
      p,
      few,
      few.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: 'thumbs_down' as const })),
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect((await admin<{ documents: unknown[] }>(p, '/documents')).body.documents).toEqual([]);
  });

  it("judges a document against the share of the project's scored answers that went wrong, not of all its answers", async () => {
    const p = await newProject();
    // Six of ten scored answers bad, as many as in the project's scored answers; forty answers nobody rated, of another document.
    const judged = Array.from({ length: 10 }, (_, i) => answerFrom('faq.md', 'v1', { query: `faq ${i}` }));
    const unrated = Array.from({ length: 40 }, (_, i) => answerFrom('shipping.md', 'v1', { query: `shipping ${i}` }));
    await send(
      p,
      [...judged, ...unrated],
      judged.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: i < 6 ? ('thumbs_down' as const) : ('thumbs_up' as const) })),
    );
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
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
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const inbox = await admin<{ owners: { owner: string; corrections: { eventId: string; sourceDocId: string; text: string }[] }[] }>(p, '/corrections');
    expect(inbox.body.owners.map((o) => [o.owner, o.corrections.map((c) => c.sourceDocId)])).toEqual([['payments', ['refunds.md']]]);
    const id = inbox.body.owners[0]!.corrections[0]!.eventId;
    // A note of white space says nothing of what was changed: refused, the correction still open.
    expect(await admin(p, `/corrections/${id}/resolve`, { method: 'POST', json: { note: '  \n ' } })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_resolution', field: 'note' } },
    });
    expect((await admin<{ owners: unknown[] }>(p, '/corrections')).body.owners).toHaveLength(1);
    expect((await admin(p, `/corrections/${id}/resolve`, { method: 'POST', json: { note: ' Updated the refunds page ' } })).status).toBe(200);
    expect((await admin<{ owners: unknown[] }>(p, '/corrections')).body.owners).toEqual([]);
    expect((await admin<{ owners: { corrections: { note: string }[] }[] }>(p, '/corrections?status=resolved')).body.owners[0]!.corrections[0]!.note).toBe(
      'Updated the refunds page',
    );
    // Resolved already (in another tab, by another admin): the note written then is kept, and the answer says so.
    expect(await admin(p, `/corrections/${id}/resolve`, { method: 'POST', json: { note: 'Something else' } })).toMatchObject({
      status: 409,
      body: { error: { code: 'correction_resolved', field: 'eventId' } },
    });
    expect((await admin<{ owners: { corrections: { note: string }[] }[] }>(p, '/corrections?status=resolved')).body.owners[0]!.corrections[0]!.note).toBe(
      'Updated the refunds page',
    );
    expect((await admin(p, '/corrections/nope/resolve', { method: 'POST', json: { note: 'x' } })).status).toBe(404);
    expect(await admin(p, '/owners', { method: 'PUT', json: { owners: [{ pattern: '', owner: 'x' }] } })).toMatchObject({
      status: 400,
      body: { error: { field: 'owners[0].pattern' } },
    });
  });

  it("lists corrections newest first whatever a browser's clock says, each dated between its answer and its arrival", async () => {
    const p = await newProject();
    const answered = Date.now() - 3_600_000;
    const [ahead, behind, later] = ['ahead', 'behind', 'later'].map((q) => answerFrom('faq.md', 'v1', { query: q, createdAt: answered }));
    const correct = (traceId: string, clientTs: number, sessionId: string) => ({
      traceId,
      sessionId,
      signalType: 'correction' as const,
      detail: { text: 'The answer is out of date' },
      clientTs,
    });
    // A browser a day ahead and one a week behind, then one on time a moment later.
    await send(p, [ahead!, behind!, later!], [correct(ahead!.traceId, Date.now() + DAY, 'a'), correct(behind!.traceId, Date.now() - 7 * DAY, 'b')]);
    const sentBefore = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await send(p, [], [correct(later!.traceId, Date.now(), 'c')]);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const inbox = await admin<{ owners: { corrections: { traceId: string; createdAt: number }[] }[] }>(p, '/corrections');
    const listed = inbox.body.owners.flatMap((o) => o.corrections);
    expect(listed.map((c) => c.traceId)).toEqual([later!.traceId, ahead!.traceId, behind!.traceId]);
    expect(listed[1]!.createdAt).toBeLessThanOrEqual(sentBefore);
    expect(listed[2]!.createdAt).toBe(answered);
  });
});

/**
 * A project where policies/returns.md goes wrong on each of its `answers` answers (one reader
 * each, as in real traffic) and shipping.md right on 30: returns.md is flagged.
 */
async function staleReturns(answers: number, over: (i: number) => Partial<TraceInput> = () => ({})) {
  const p = await newProject();
  const stale = Array.from({ length: answers }, (_, i) => answerFrom('policies/returns.md', 'v2', { query: `return question ${i}`, ...over(i) }));
  const fine = Array.from({ length: 30 }, (_, i) => answerFrom('shipping.md', 'v1', { query: `shipping question ${i}` }));
  await send(
    p,
    [...stale, ...fine],
    [
      ...stale.map((t, i) => ({ traceId: t.traceId, sessionId: `r-${i}`, signalType: 'thumbs_down' as const })),
      ...fine.map((t, i) => ({ traceId: t.traceId, sessionId: `f-${i}`, signalType: 'thumbs_up' as const })),
    ],
  );
  return { p, stale };
}

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
    expect(documentSlices(await runNightly(env, now, { projects: [p.id] }))).toBe(1);
    const whole = await flagsOf(p.id);
    expect(whole.map((f) => `${f.sourceDocId} ${f.sourceDocVersion}`)).toEqual(['a-stale.md *', 'c-versions.md v2', 'e-stale.md *', 'g-stale.md *']);
    pagedBy(2);
    // Pages a b, c d, e f, g: the night after, on the same rows.
    expect(documentSlices(await runNightly(env, now + DAY, { projects: [p.id] }))).toBe(4);
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
    await runNightly(env, now, { projects: [p.id] });
    const current = await flagsOf(p.id);
    await leaveOldFlags(p.id);
    expect(await flagsOf(p.id)).toHaveLength(current.length + 5);
    pagedBy(perSlice);
    // A full last page is followed by an empty slice: it still owns the ids after it.
    expect(documentSlices(await runNightly(env, now + DAY, { projects: [p.id] }))).toBe(slices);
    expect(await flagsOf(p.id)).toEqual(current);
  });

  it('ends a run cut after every slice where an uncut one ends, and a second run, or a slice done again, changes nothing', async () => {
    const p = await knowledgeBase();
    const now = Date.now() + 1_000;
    await runNightly(env, now, { projects: [p.id] });
    const current = await flagsOf(p.id);
    await leaveOldFlags(p.id);
    pagedBy(2);
    let summary: Awaited<ReturnType<typeof runNightly>>;
    while (!(summary = await runNightly(env, now + DAY, { projects: [p.id], maxSlices: 1 })).done);
    expect(documentSlices(summary)).toBe(4);
    expect(await flagsOf(p.id)).toEqual(current);
    const done = await flaggedDocuments(env.DB, p.id);
    expect(done.every((f) => f.lastFlagged === utcDay(now + DAY))).toBe(true);
    // A minute later, within the same UTC night even when the test runs just before midnight.
    const again = Math.min(now + DAY + 60_000, Date.parse(`${utcDay(now + DAY)}T23:59:59.999Z`));
    expect((await runNightly(env, again, { projects: [p.id] })).done).toBe(true);
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
    expect(await documentsStage(2).slice(ctx, 'b-fine.md')).toEqual({ cursor: 'd-fine.md', counts: { documents: 2, flagged: 1 } });
    expect(await flaggedDocuments(env.DB, p.id)).toEqual(done);
  });
});

describe('the flagged documents listed', () => {
  it('come most significant first, by the smaller p-value of their two tests, a test passed or not run never ahead of one failed', async () => {
    const p = await newProject();
    const flag = (docId: string, negativeP: number | null, requeryP: number | null) =>
      env.DB.prepare(
        `insert into document_flags (project_id, source_doc_id, source_doc_version, reasons, counts, negative_p, requery_p, evidence, first_flagged, last_flagged)
         values (?, ?, '*', '[]', '{}', ?, ?, '[]', '2026-01-01', '2026-01-01')`,
      )
        .bind(p.id, docId, negativeP, requeryP)
        .run();
    // Re-asked far more lately (its answers no worse than the project's), bad answers, and both.
    await flag('reasked.md', 0.6, 1e-9);
    await flag('bad.md', 0.001, null);
    await flag('both.md', 0.005, 0.002);
    const { body } = await admin<{ documents: { sourceDocId: string }[] }>(p, '/documents');
    expect(body.documents.map((d) => d.sourceDocId)).toEqual(['reasked.md', 'bad.md', 'both.md']);
  });
});

describe("the stale-document tests' windows", () => {
  it('count each day once, in the window it belongs to: the recent days after the last of the days before, none on or before the first', async () => {
    const p = await newProject();
    const now = Date.now();
    const [from, recentFrom, night] = [documentWindowAfter(now), recentWindowAfter(now), utcDay(now)];
    const next = (day: string) => utcDay(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
    // Each day's answers (all re-asked) a power of two, so any day counted twice or in the wrong window shows.
    const days: [string, number][] = [
      [from, 1],
      [next(from), 2],
      [recentFrom, 4],
      [next(recentFrom), 8],
      [night, 16],
    ];
    await env.DB.batch(
      days.map(([day, n]) =>
        env.DB.prepare(
          `insert into document_days (project_id, source_doc_id, source_doc_versions, day, traces, scored, negative, positive, requeried)
           values (?, 'doc.md', '["v1"]', ?, ?, 0, 0, 0, ?)`,
        ).bind(p.id, day, n, n),
      ),
    );
    const row = await env.DB.prepare(COUNTS_SQL).bind(p.id, '', 'doc.md', from, recentFrom, night).first();
    expect(row).toMatchObject({ recent: 24, recentRequeried: 24, before: 6, beforeRequeried: 6 });
  });
});

describe("the stale-document slice's plan", () => {
  it("reads its documents' rows on the primary key, from the cursor on, never the whole project", async () => {
    const page = await planOf(PAGE_SQL, 'p', 'c-versions.md', '2026-10-01', 2_000, '2026-11-05');
    expect(page).toContainEqual(
      expect.stringMatching(/^SEARCH document_days USING COVERING INDEX sqlite_autoindex_document_days_1 \(project_id=\? AND source_doc_id>\?\)$/),
    );
    const counts = await planOf(COUNTS_SQL, 'p', 'c-versions.md', 'f-fine.md', '2026-10-01', '2026-11-01', '2026-11-05');
    expect(counts.filter((step) => /document_days/.test(step))).toEqual([
      expect.stringMatching(/^SEARCH document_days USING INDEX sqlite_autoindex_document_days_1 \(project_id=\? AND source_doc_id>\? AND source_doc_id<\?\)$/),
    ]);
  });

  it('lists the days to count again on the index of those days alone', async () => {
    const plan = await planOf(UNLISTED_DAYS_SQL, 'p', '2026-11-30', '2026-10-01');
    expect(plan.filter((step) => /document_days/.test(step))).toEqual([
      expect.stringMatching(/^SEARCH document_days USING (COVERING )?INDEX document_days_unlisted \(project_id=\? AND day>\?\)$/),
    ]);
  });

  it("reads the flagged documents' lists of worst answers on the primary key", async () => {
    const plan = await planOf(WORST_SQL, 'p', '["a-stale.md"]', '2026-10-01', '2026-11-05');
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH w USING INDEX sqlite_autoindex_document_days_1 \(project_id=\? AND source_doc_id=\?\)$/));
  });
});
