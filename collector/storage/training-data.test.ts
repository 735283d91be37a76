import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { queryKey } from '../../shared/terms.ts';
import type { EngagementRow } from '../../shared/training/data.ts';
import { runNightly } from '../jobs/nightly.ts';
import { isHeldOut } from '../loop/eval-sets.ts';
import { ENGAGEMENT_WEIGHT } from '../loop/mining.ts';
import { bearer, bySession, call, event, newProject, ORIGIN, trace } from '../test/fixtures.ts';
import { countedD1 } from '../test/hooked-d1.ts';
import { trainingData } from './training-data.ts';

/** The first wording of a question on the wanted side of the train / held-out split. */
const wording = (make: (i: number) => string, heldOut: boolean) => {
  for (let i = 0; ; i++) if (isHeldOut(queryKey(make(i))) === heldOut) return make(i);
};

const chunk = (id: string, rank: number) => ({ chunkId: id, sourceDocId: `${id}.md`, score: 10 - rank, rank, text: `text of ${id}` });
/** Retrieval's order a, b, c, d; the reranker's c, a, b: what the model saw and `[n]` counts in. */
const stages = { retrievedChunks: ['a', 'b', 'c', 'd'].map((id, i) => chunk(id, i + 1)), rerankedChunks: ['c', 'a', 'b'].map((id, i) => chunk(id, i + 1)) };

describe('what retraining reads: engagement', () => {
  it('counts as shown the chunks an answer cites, at the rank the model saw them, and engagement per question, held-out questions left out', async () => {
    const p = await newProject();
    const now = Date.now() + 1_000;
    const asked = wording((i) => `refund window opened items v${i}`, false);
    const heldOut = wording((i) => `refund window opened items v${i}`, true);
    const cites = trace({ ...stages, query: asked, answer: 'Within 14 days [1]. Unopened within 30 [3].', sessionId: 's1', createdAt: now - 3_000 });
    const again = trace({ ...stages, query: asked, answer: 'Within 14 days [1], or 30 [3].', sessionId: 's2', createdAt: now - 2_000 });
    const unmarked = trace({ ...stages, query: asked, answer: 'Within 14 days.', sessionId: 's3', createdAt: now - 1_000 });
    const held = trace({ ...stages, query: heldOut, answer: 'Within 14 days [1].', sessionId: 's4', createdAt: now - 500 });
    const traces = [cites, again, unmarked, held];
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces })).status).toBe(200);
    const events = [
      event({ traceId: cites.traceId, sessionId: 's1', signalType: 'citation_click', detail: { chunkId: 'c' } }),
      event({ traceId: again.traceId, sessionId: 's2', signalType: 'copy_source', detail: { chunkId: 'b', chars: 80 } }),
      event({ traceId: held.traceId, sessionId: 's4', signalType: 'citation_click', detail: { chunkId: 'c' } }),
    ];
    for (const session of bySession(events))
      expect((await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: session } })).status).toBe(200);
    await runNightly(env, now, { projects: [p.id] });

    const data = await trainingData(env.DB, p.id, now, []);
    const byChunk = (rows: readonly EngagementRow[]) => Object.fromEntries(rows.map((r) => [`${r.chunkId}@${r.rank}`, [r.shown, r.engaged]]));
    // c is first of what the model saw, b third: cited by two answers, and shown in the top three of the one without markers;
    // a (second) only there; d, retrieved but never in front of the model, never.
    expect(byChunk(data.engagement)).toEqual({ 'c@1': [3, ENGAGEMENT_WEIGHT.click], 'b@3': [3, ENGAGEMENT_WEIGHT.copy], 'a@2': [1, 0] });
    expect(new Set(data.queryEngagement.map((r) => r.queryKey))).toEqual(new Set([queryKey(asked)]));
    expect(byChunk(data.queryEngagement)).toEqual(byChunk(data.engagement));
    expect(data.engagement.every((r) => r.sourceDocId === `${r.chunkId}.md`)).toBe(true);
  });

  it('reads the same engagement for the same moment again after later traffic: traces and events after it are left out', async () => {
    const p = await newProject();
    const asked = wording((i) => `refund window opened items v${i}`, false);
    const answered = (sessionId: string, createdAt: number) => trace({ ...stages, query: asked, answer: 'Within 14 days [1].', sessionId, createdAt });
    const click = (t: ReturnType<typeof trace>) =>
      event({ traceId: t.traceId, sessionId: t.sessionId, signalType: 'citation_click', detail: { chunkId: 'c' } });
    const send = async (traces: ReturnType<typeof trace>[], events: ReturnType<typeof event>[]) => {
      if (traces.length) expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces })).status).toBe(200);
      for (const session of bySession(events))
        expect((await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: session } })).status).toBe(
          200,
        );
    };
    const early = answered('s1', Date.now() - 2_000);
    await send([early], [click(early)]);
    const at = Date.now();
    await runNightly(env, at, { projects: [p.id] });
    const read = async () => {
      const { engagement, queryEngagement } = await trainingData(env.DB, p.id, at, []);
      return { engagement, queryEngagement };
    };
    const before = await read();
    expect(before.engagement).toEqual([expect.objectContaining({ chunkId: 'c', shown: 1, engaged: ENGAGEMENT_WEIGHT.click })]);
    // After that moment: another click on the early answer, and a later answer clicked too, both judged by the next night.
    await new Promise((r) => setTimeout(r, 5));
    const later = answered('s2', Date.now());
    await send([later], [click({ ...early, sessionId: 's3' }), click(later)]);
    await runNightly(env, at + 86_400_000, { projects: [p.id] });
    expect(await read()).toEqual(before);
  });
  it("reads the window's shown and engaged chunks and the suite's questions in one round trip", async () => {
    const p = await newProject();
    const { db, trips } = countedD1(env.DB);
    // No confirmed examples: no lists to read, engagement alone.
    expect(await trainingData(db, p.id, Date.now(), [])).toEqual({ confirmed: [], lists: [], engagement: [], queryEngagement: [] });
    expect(trips()).toBe(1);
  });
});

describe('what retraining reads: candidates', () => {
  it("gives each candidate its own version's text, reading a chunk's text once for every list that holds it", async () => {
    const p = await newProject();
    const now = Date.now() + 1_000;
    const first = wording((i) => `store credit expiry v${i}`, false);
    const second = wording((i) => `gift card balance v${i}`, false);
    const versioned = (id: string, rank: number, version: string) => ({ ...chunk(id, rank), sourceDocVersion: version, text: `${id} as of ${version}` });
    const before = trace({
      query: first,
      retrievedChunks: [versioned('a', 1, 'v1'), versioned('b', 2, 'v1')],
      rerankedChunks: undefined,
      createdAt: now - 2_000,
    });
    const after = trace({
      query: second,
      retrievedChunks: [versioned('a', 1, 'v2'), versioned('b', 2, 'v1')],
      rerankedChunks: undefined,
      createdAt: now - 1_000,
    });
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [before, after] })).status).toBe(200);
    await runNightly(env, now, { projects: [p.id] });

    const confirmed = [first, second].map((query) => ({ queryKey: queryKey(query), query, chunkId: 'a', sourceDocId: 'a.md', relevance: 1 as const }));
    const texts = new Map<string, string>();
    const data = await trainingData(env.DB, p.id, now, confirmed, texts);
    const listOf = (query: string) => data.lists.find((l) => l.query === query)!.candidates.map((c) => [c.chunkId, c.text]);
    expect(listOf(first)).toEqual([
      ['a', 'a as of v1'],
      ['b', 'b as of v1'],
    ]);
    expect(listOf(second)).toEqual([
      ['a', 'a as of v2'],
      ['b', 'b as of v1'],
    ]);
    // Three texts, though four candidates carry them.
    expect([...texts.values()].sort()).toEqual(['a as of v1', 'a as of v2', 'b as of v1']);
  });

  it('keeps the candidates of an earlier answer when the latest answer to the question retrieved nothing', async () => {
    const p = await newProject();
    const now = Date.now() + 1_000;
    const asked = wording((i) => `refund window opened items v${i}`, false);
    const answered = (ids: string[], createdAt: number) =>
      trace({ query: asked, retrievedChunks: ids.map((id, i) => chunk(id, i + 1)), rerankedChunks: undefined, createdAt });
    const traces = [answered(['a', 'b'], now - 2_000), answered([], now - 1_000)];
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces })).status).toBe(200);
    await runNightly(env, now, { projects: [p.id] });
    const confirmed = [{ queryKey: queryKey(asked), query: asked, chunkId: 'a', sourceDocId: 'a.md', relevance: 1 as const }];
    const { lists } = await trainingData(env.DB, p.id, now, confirmed);
    expect(lists.map((l) => l.candidates.map((c) => c.chunkId))).toEqual([['a', 'b']]);
  });

  it('reads the same lists for the same moment again after the question is answered anew: an answer after it is left out', async () => {
    const p = await newProject();
    const asked = wording((i) => `refund window opened items v${i}`, false);
    const answered = (ids: string[], createdAt: number) =>
      trace({ query: asked, retrievedChunks: ids.map((id, i) => chunk(id, i + 1)), rerankedChunks: undefined, createdAt });
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [answered(['a', 'b'], Date.now() - 2_000)] })).status).toBe(200);
    const at = Date.now();
    await runNightly(env, at, { projects: [p.id] });
    const confirmed = [{ queryKey: queryKey(asked), query: asked, chunkId: 'a', sourceDocId: 'a.md', relevance: 1 as const }];
    const read = async () => (await trainingData(env.DB, p.id, at, confirmed)).lists;
    const before = await read();
    expect(before.map((l) => l.candidates.map((c) => c.chunkId))).toEqual([['a', 'b']]);
    // The same question answered after that moment from other chunks, and counted by the next night.
    await new Promise((r) => setTimeout(r, 5));
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [answered(['d', 'c'], Date.now())] })).status).toBe(200);
    await runNightly(env, at + 86_400_000, { projects: [p.id] });
    expect(await read()).toEqual(before);
  });
});
