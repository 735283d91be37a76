import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { type Evidence, evidenceText } from '../../../shared/admin-api/evidence.ts';
import { credit, demotedAnswerSession, refund, shipping } from '../../../tests/scenarios/demoted-answer.ts';
import { runNightly } from '../../jobs/nightly.ts';
import { adminCall, bearer, call, event, newProject, ORIGIN, sendTraffic } from '../../test/fixtures.ts';
import { signedInMidConversation } from '../../test/sessions.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const admin = <T = any>(p: Project, path: string) => adminCall<T>(p, path);

/** Two turns of one session; the first answer quotes the wrong chunk after the reranker pushed the right one down. */
async function seedSession(p: Project) {
  const session = demotedAnswerSession(`sv-${Math.random().toString(36).slice(2, 8)}`, Date.now() - 120_000);
  expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [session.first, session.second] })).status).toBe(200);
  const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: session.events } });
  expect(res.status).toBe(200);
  return session;
}

describe('GET /v1/admin/traces/:traceId', () => {
  it('answers the trace, its chunks per stage, citations, assessed events in time order, the session and a diagnosis', async () => {
    const p = await newProject();
    const { first, second, events } = await seedSession(p);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });

    const { status, body } = await admin(p, `/traces/${first.traceId}`);
    expect(status).toBe(200);
    expect(body.trace).toMatchObject({ query: 'refund for opened items?', rewrittenQuery: 'refund opened items policy', sessionId: first.sessionId });
    expect(body.trace).not.toHaveProperty('projectId');
    expect(body.retrievedChunks.map((c: any) => [c.rank, c.chunkId, c.text])).toEqual([
      [1, 'refund-1', refund.text],
      [2, 'shipping-1', shipping.text],
      [3, 'credit-1', credit.text],
    ]);
    expect(body.rerankedChunks.map((c: any) => [c.rank, c.chunkId, c.score])).toEqual([
      [1, 'shipping-1', 0.95],
      [2, 'credit-1', 0.6],
      [3, 'refund-1', 0.3],
    ]);
    expect(body.citations).toEqual([{ n: 1, chunkId: 'shipping-1' }]);
    expect(body.events.map((e: any) => e.eventId)).toEqual(events.map((e) => e.eventId));
    for (const e of body.events) {
      expect(e.confidence).toBeGreaterThan(0);
      expect(Array.isArray(e.rules)).toBe(true);
      expect(e.attributedTraceId).toBe(first.traceId);
    }
    expect(body.stats.weightedScore).toBeLessThan(0);
    expect(body.session.map((t: any) => t.traceId)).toEqual([first.traceId, second.traceId]);
    expect(body.reviewItems.length).toBeGreaterThan(0);
    expect(body.diagnosis).toEqual(
      expect.arrayContaining([
        { kind: 'correction_in_chunk', chunkId: 'refund-1', rank: 3, overlap: 1, cited: false },
        { kind: 'reranker_demoted', chunkId: 'refund-1', from: 1, to: 3 },
        { kind: 'flagged_source', chunkId: 'shipping-1', rank: 1 },
      ]),
    );
  });

  it('answers feedback that arrived before its trace with a null trace, and 404 when neither exists', async () => {
    const p = await newProject();
    const e = event({ traceId: `early-${Math.random().toString(36).slice(2)}`, signalType: 'thumbs_up' });
    expect((await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: [e] } })).status).toBe(200);
    const early = await admin(p, `/traces/${e.traceId}`);
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ trace: null, retrievedChunks: [], session: [], diagnosis: [] });
    expect(early.body.events.map((x: any) => [x.eventId, x.confidence])).toEqual([[e.eventId, null]]);
    const none = await admin(p, '/traces/no-such-trace');
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ error: { code: 'trace_not_found', field: 'traceId' } });
  });

  it('shows no other project its traces', async () => {
    const [p, other] = [await newProject(), await newProject()];
    const { first } = await seedSession(p);
    expect((await admin(other, `/traces/${first.traceId}`)).status).toBe(404);
  });
});

describe('GET /v1/admin/review/:id/traces', () => {
  it('lists the traces behind an item with what each contributed', async () => {
    const p = await newProject();
    const { first } = await seedSession(p);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const review = await admin<{ items: { id: string; traceIds: string[] }[] }>(p, '/review?limit=50');
    const item = review.body.items.find((i) => i.traceIds.includes(first.traceId))!;
    expect(item).toBeDefined();
    const { status, body } = await admin(p, `/review/${item.id}/traces`);
    expect(status).toBe(200);
    expect(body.traces.map((t: any) => t.traceId)).toEqual(item.traceIds);
    expect(body.traces[0]).toMatchObject({ traceId: first.traceId, query: 'refund for opened items?', createdAt: first.createdAt });
    expect(body.traces[0].evidence.length).toBeGreaterThan(0);
    // The evidence as codes and their numbers, for a reader to word in their language; `evidence` is them worded in English.
    expect(body.traces[0].evidenceCodes.map((e: Evidence) => evidenceText(e))).toEqual(body.traces[0].evidence);
    expect(body.traces[0].evidenceCodes[0].code).toMatch(/^[a-z_]+$/);
    expect(typeof body.traces[0].weight).toBe('number');
    // What the user wrote, for the reviewer to judge the chunk against.
    expect(body.traces[0].corrections).toEqual(['Opened items can be refunded within 14 days of delivery']);
    expect((await admin(p, '/review/no-such-item/traces')).status).toBe(404);

    // A row mined before evidence was stored as codes holds English lines: read back as the codes they were worded from.
    await env.DB.prepare(
      `update review_item_traces set evidence = '["ranked 1 on an answer scored -0.62"]' where project_id = ? and item_id = ? and trace_id = ?`,
    )
      .bind(p.id, item.id, first.traceId)
      .run();
    const legacy = (await admin(p, `/review/${item.id}/traces`)).body.traces[0];
    expect(legacy).toMatchObject({
      evidence: ['ranked 1 on an answer scored -0.62'],
      evidenceCodes: [{ code: 'ranked_on_bad_answer', rank: 1, score: -0.62 }],
    });

    // So with why the guess: a row mined before holds the English sentence, read back as the code it was worded from.
    const why = "no retrieved chunk holds the user's correction (best overlap 12%)";
    const code = { code: 'correction_not_retrieved', share: 0.12 };
    await env.DB.batch([
      env.DB.prepare('update review_item_traces set guess_why = ? where project_id = ? and item_id = ?').bind(why, p.id, item.id),
      env.DB.prepare('update review_items set guess_why = ? where project_id = ? and item_id = ?').bind(why, p.id, item.id),
    ]);
    expect((await admin(p, `/review/${item.id}/traces`)).body.traces[0]).toMatchObject({ guessWhy: why, guessWhyCode: code });
    expect((await admin(p, `/review/${item.id}`)).body).toMatchObject({ guessWhy: why, guessWhyCode: code });
  });

  it('shows a correction typed under a follow-up with the earlier answer it is about', async () => {
    const p = await newProject();
    const { first, theirs, correction } = signedInMidConversation();
    await sendTraffic(p, [first, theirs], [correction]);
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const review = await admin<{ items: { id: string; traceIds: string[] }[] }>(p, '/review?limit=50');
    const corrections = new Map<string, string[][]>();
    for (const item of review.body.items) {
      const { body } = await admin<{ traces: { traceId: string; corrections: string[] }[] }>(p, `/review/${item.id}/traces`);
      for (const t of body.traces) corrections.set(t.traceId, [...(corrections.get(t.traceId) ?? []), t.corrections]);
    }
    expect(corrections.get(first.traceId)?.length).toBeGreaterThan(0);
    for (const listed of corrections.get(first.traceId)!) expect(listed).toEqual([(correction.detail as { text: string }).text]);
    for (const listed of corrections.get(theirs.traceId) ?? []) expect(listed).toEqual([]);

    // The trace view diagnoses it on the earlier answer's chunks, not on the follow-up's.
    const kinds = async (traceId: string) => (await admin<{ diagnosis: { kind: string }[] }>(p, `/traces/${traceId}`)).body.diagnosis.map((f) => f.kind);
    const isAboutCorrection = (kind: string) => kind.startsWith('correction_');
    expect((await kinds(first.traceId)).filter(isAboutCorrection)).toHaveLength(1);
    expect((await kinds(theirs.traceId)).filter(isAboutCorrection)).toEqual([]);
  });
});
