import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { isTermSetHash, termSetKey } from '../../shared/reranker/forget-questions.ts';
import { parseRerankerModel, type RerankerModel } from '../../shared/reranker/model.ts';
import { rerankWithModel } from '../../shared/reranker/rerank.ts';
import { questionTerms } from '../../shared/terms.ts';
import { TRAINING_DATA_MAX_AGE_MS } from '../../shared/thresholds.ts';
import { ERASE_PASS_QUERIES, eraseUser } from '../storage/erasure.ts';
import { recordForgetting } from '../storage/erasure-memory.ts';
import { currentVersion, modelArtifact } from '../storage/models.ts';
import { countedD1 } from '../storage/sql/counted-d1.ts';
import { adminCall, bearer, call, newProject, rowsNaming, sendTraffic, trace } from '../test/fixtures.ts';
import { hookedD1, once } from '../test/hooked-d1.ts';
import { tinyModel } from '../test/tiny-model.ts';
import { runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

const ERASED = 'u-erased';
const KEPT = 'u-kept';
const erasedQueries = ['What is the refund window for opened items?', 'Can I return a gift card?'];
const keptQuery = 'How long does shipping to Norway take?';

/** The memory query training makes of a question: its distinct terms, in order. */
const remembered = (query: string) => ({ terms: [...new Set(questionTerms(query))] });

/**
 * A model remembering both users' questions (the erased user's asked in other words: the same
 * terms), and one no one stored asked; `filler` more to make it longer than one D1 value.
 */
function modelWithMemory(version: string, filler = 0): RerankerModel {
  const queries = [
    remembered('opened items: REFUND window?'),
    remembered(keptQuery),
    remembered('Which carriers deliver on Sundays?'),
    remembered(erasedQueries[1]!),
    ...Array.from({ length: filler }, (_, i) => ({ terms: [`filler${i}`, '已拆封的商品能否退款以及需要多少天'.repeat(10)] })),
  ];
  const judgement = (query: number, chunkId: string, relevance: 0 | 1) => ({ query, chunkId, sourceDocId: `${chunkId}.md`, relevance });
  return {
    ...tinyModel(version),
    features: ['retrieval_score', 'memory_relevant'],
    weights: [1, 5],
    mean: [0.5, 0],
    scale: [0.25, 1],
    memory: {
      queries,
      judgements: [judgement(0, 'c1', 1), judgement(1, 'c2', 1), judgement(2, 'c3', 0), judgement(3, 'c1', 0), judgement(1, 'c4', 0), judgement(4, 'c5', 1)],
    },
  };
}

const post = (p: Project, m: RerankerModel, comparedWith: string | null, dataReadAt?: number) =>
  adminCall(p, '/models', { method: 'POST', json: { model: m, confirmed: 30, comparedWith, evaluation: {}, promote: true, reasons: ['by hand'], dataReadAt } });

const store = async (p: Project, m: RerankerModel, comparedWith: string | null, dataReadAt?: number) =>
  expect((await post(p, m, comparedWith, dataReadAt)).status).toBe(201);

const artifact = async (p: Project, version: string) =>
  parseRerankerModel(await (await call(`/v1/admin/models/${version}`, { headers: bearer(p.keys.admin) })).text());

const served = (p: Project, etag?: string) => call('/v1/reranker', { headers: { ...bearer(p.keys.server), ...(etag && { 'If-None-Match': etag }) } });

const twoUsers = (p: Project) =>
  sendTraffic(p, [
    ...erasedQueries.map((query, i) => trace({ userIdHash: ERASED, sessionId: `e-${i}`, query })),
    trace({ userIdHash: KEPT, sessionId: 'k', query: keptQuery }),
  ]);

async function twoUsersAndModels(p: Project) {
  await twoUsers(p);
  // An older version, no longer served, longer than one D1 value; and the one users get.
  await store(p, modelWithMemory('v1', 3_000), null);
  await store(p, modelWithMemory('v2'), 'v1');
}

async function eraseAll(p: Project) {
  for (let i = 0; ; i++) {
    expect(i).toBeLessThan(10);
    const { status, body } = await adminCall(p, `/users/${ERASED}`, { method: 'DELETE' });
    expect(status).toBe(200);
    if (body.done) return;
  }
}

/** What a scrubbed model must remember: the kept user's question and the one no one stored asked, their judgements pointing at them. */
function expectScrubbed(m: RerankerModel) {
  expect(m.memory.queries.slice(0, 2)).toEqual([remembered(keptQuery), remembered('Which carriers deliver on Sundays?')]);
  expect(m.memory.judgements.slice(0, 3).map((j) => [j.query, j.chunkId, j.relevance])).toEqual([
    [0, 'c2', 1],
    [1, 'c3', 0],
    [0, 'c4', 0],
  ]);
}

describe("erasing a user takes their questions out of every stored model's memory", () => {
  it('rewrites each version without them, re-indexing the judgements left, and serves the model again under a new ETag', async () => {
    const p = await newProject();
    await twoUsersAndModels(p);
    const before = await served(p);
    const etag = before.headers.get('ETag')!;
    expect(etag).toBe('"v2"');

    for (let i = 0; ; i++) {
      expect(i).toBeLessThan(10);
      const { status, body } = await adminCall(p, `/users/${ERASED}`, { method: 'DELETE' });
      expect(status).toBe(200);
      if (body.done) break;
    }

    const v2 = await artifact(p, 'v2');
    expectScrubbed(v2);
    expect(v2.memory.queries).toHaveLength(2);
    expect(v2.memory.judgements).toHaveLength(3);
    const v1 = await artifact(p, 'v1');
    expectScrubbed(v1);
    expect(v1.memory.queries).toHaveLength(3_002);
    expect(v1.memory.judgements.at(-1)).toMatchObject({ query: 2, chunkId: 'c5' });
    // The rest of the artifact is as stored, and the registry counts its new size.
    expect({ ...v2, memory: null }).toEqual({ ...modelWithMemory('v2'), memory: null });
    const { body } = await adminCall<{ models: { version: string; bytes: number }[] }>(p, '/models');
    expect(body.models.find((m) => m.version === 'v2')!.bytes).toBe(new TextEncoder().encode(JSON.stringify(v2)).length);

    // A backend holding the model as it was downloads it again, and ranks with it.
    const again = await served(p, etag);
    expect(again.status).toBe(200);
    const newTag = again.headers.get('ETag')!;
    expect(newTag).not.toBe(etag);
    const fetched = parseRerankerModel(await again.text());
    expectScrubbed(fetched);
    const ranked = rerankWithModel(fetched, 'How long does shipping to Norway take?', [
      { chunkId: 'c4', text: 'Norway: 3 days', score: 0.6 },
      { chunkId: 'c2', text: 'Shipping to Norway takes a week', score: 0.5 },
    ]);
    expect(ranked.map((r) => r.chunkId)).toEqual(['c2', 'c4']);
    expect((await served(p, newTag)).status).toBe(304);

    expect(await rowsNaming(p.id, [ERASED, 'window', 'gift'])).toEqual([]);
    // Erasing them again changes nothing: no model is rewritten.
    expect((await adminCall(p, `/users/${ERASED}`, { method: 'DELETE' })).body).toMatchObject({ done: true });
    expect((await served(p, newTag)).status).toBe(304);
  });

  it('rewrites one model a call when a call has room for one step, answering done: false until every model is', async () => {
    const p = await newProject();
    await twoUsersAndModels(p);
    const calls: boolean[] = [];
    for (let done = false; !done && calls.length < 10; ) {
      const counted = countedD1(env.DB);
      done = (await eraseUser(counted.db, p.id, ERASED, { queryBudget: ERASE_PASS_QUERIES })).done;
      expect(counted.queries()).toBeLessThanOrEqual(ERASE_PASS_QUERIES);
      calls.push(done);
    }
    // Their traces, then v1, then v2.
    expect(calls).toEqual([false, false, true]);
    for (const version of ['v1', 'v2']) expectScrubbed(await artifact(p, version));
    expect(await rowsNaming(p.id, [ERASED])).toEqual([]);
  });

  it('serves the model under the tag of the text it sends, when the erasure rewrites it while a backend polls', async () => {
    const p = await newProject();
    await twoUsersAndModels(p);
    expect((await served(p)).headers.get('ETag')).toBe('"v2"');
    // The erasure lands after the poll read which revision is served, before it reads the text.
    const erased = once(async () => expect((await eraseUser(env.DB, p.id, ERASED)).done).toBe(true));
    let reads = 0;
    const racing = hookedD1(env.DB, async ({ sql }, run) => {
      if (sql.some((s) => s.includes('from model_parts'))) {
        reads++;
        await erased();
      }
      return run();
    });
    const res = await call('/v1/reranker', { headers: bearer(p.keys.server), bindings: { DB: racing } });
    expect(res.status).toBe(200);
    expectScrubbed(parseRerankerModel(await res.text()));
    // The text sent is the one read, once: its revision is read with it.
    expect(reads).toBe(1);
    // Polled with that tag, it is what is served: nothing is sent again.
    expect((await served(p, res.headers.get('ETag')!)).status).toBe(304);
  });
});

describe('an answer of theirs that arrives while the models are scrubbed', () => {
  // Each write of the scrub: v1's rewrite, v1 done, v2's rewrite, v2 done with the sets moved.
  it.each([1, 2, 3, 4])('has its question taken out of every model too, erased just before write %i of the scrub', async (at) => {
    const p = await newProject();
    await twoUsersAndModels(p);
    // Their traces go; the models are scrubbed by the next call.
    expect((await eraseUser(env.DB, p.id, ERASED, { queryBudget: ERASE_PASS_QUERIES })).done).toBe(false);
    let batches = 0;
    // Another call erases a new answer of theirs, and stops for its budget after that batch.
    const racing = hookedD1(env.DB, async ({ batch }, run) => {
      if (batch && ++batches === at) {
        await sendTraffic(p, [trace({ userIdHash: ERASED, sessionId: 'e-late', query: 'Which carriers deliver on Sundays?' })]);
        expect((await eraseUser(env.DB, p.id, ERASED, { queryBudget: ERASE_PASS_QUERIES })).done).toBe(false);
      }
      return run();
    });
    await eraseUser(racing, p.id, ERASED);
    expect(batches).toBeGreaterThanOrEqual(at);
    await eraseAll(p);
    const v1 = (await artifact(p, 'v1')).memory.queries;
    expect(v1[0]).toEqual(remembered(keptQuery));
    expect(v1).toHaveLength(3_001);
    expect((await artifact(p, 'v2')).memory.queries).toEqual([remembered(keptQuery)]);
    expect(await env.DB.prepare('select count(*) as n from erasure_memory where project_id = ?').bind(p.id).first()).toEqual({ n: 0 });
  });
});

describe('a model stored after an erasure began forgets its questions too', () => {
  /** When the training data was read, as `npm run retrain` sends it back. */
  const readAt = async (p: Project) => (await adminCall<{ readAt: number }>(p, '/training-data')).body.readAt;

  it('forgets them when trained from data read before the erasure finished, or at an unknown time; not when read after', async () => {
    const p = await newProject();
    await twoUsers(p);
    const before = await readAt(p);
    expect(before).toBeLessThanOrEqual(Date.now());
    // No model is stored while they are erased: nothing is rewritten, and their questions are kept for later ones.
    await eraseAll(p);

    await store(p, modelWithMemory('trained-before'), null, before);
    expectScrubbed(await artifact(p, 'trained-before'));
    await store(p, modelWithMemory('read-when-unknown'), 'trained-before');
    expectScrubbed(await artifact(p, 'read-when-unknown'));
    // Read after the erasure: their questions were not in it, and another user's in the same words stay.
    const after = await readAt(p);
    await store(p, modelWithMemory('trained-after'), 'read-when-unknown', after);
    expect((await artifact(p, 'trained-after')).memory.queries).toHaveLength(4);
  });

  it('refuses a model of data read longer ago than erasures are remembered, or later than now, and stores nothing', async () => {
    const p = await newProject();
    const stale = await post(p, modelWithMemory('old'), null, Date.now() - TRAINING_DATA_MAX_AGE_MS - 60_000);
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'stale_training_data', field: 'dataReadAt' } } });
    const future = await post(p, modelWithMemory('future'), null, Date.now() + 60_000);
    expect(future).toMatchObject({ status: 400, body: { error: { field: 'dataReadAt' } } });
    expect((await adminCall<{ models: unknown[] }>(p, '/models')).body.models).toEqual([]);
  });

  it('forgets the questions of an erasure under way, which keeps them as hashes, not words', async () => {
    const p = await newProject();
    await twoUsersAndModels(p);
    // One step: their traces go, the models are not rewritten yet.
    expect((await eraseUser(env.DB, p.id, ERASED, { queryBudget: ERASE_PASS_QUERIES })).done).toBe(false);
    const { results } = await env.DB.prepare(`select key from erasure_memory where project_id = ? and kind = 'terms'`).bind(p.id).all<{ key: string }>();
    expect(results).toHaveLength(2);
    expect(results.every((r) => isTermSetHash(r.key))).toBe(true);

    await store(p, modelWithMemory('v3'), 'v2', await readAt(p));
    expectScrubbed(await artifact(p, 'v3'));
    await eraseAll(p);
    for (const version of ['v1', 'v2', 'v3']) expectScrubbed(await artifact(p, version));
  });

  it('is never stored remembering them when an erasure finished between its check and its write', async () => {
    const p = await newProject();
    await twoUsers(p);
    const dataReadAt = Date.now();
    const storedAfterWrites: boolean[] = [];
    // The erasure runs whole just before the model's row is written: it finds no model to rewrite.
    const erased = once(async () => expect((await eraseUser(env.DB, p.id, ERASED)).done).toBe(true));
    const racing = hookedD1(env.DB, async ({ batch }, run) => {
      if (!batch) return run();
      await erased();
      const results = await run();
      // As the write lands, before anything else runs: stored scrubbed and served, or neither.
      const stored = await modelArtifact(env.DB, p.id, 'v1');
      if (stored !== null) expectScrubbed(parseRerankerModel(stored));
      expect(await currentVersion(env.DB, p.id)).toBe(stored === null ? null : 'v1');
      storedAfterWrites.push(stored !== null);
      return results;
    });
    const recorded = await recordForgetting(racing, p.id, {
      model: modelWithMemory('v1'),
      trainedBy: 'retrain',
      confirmed: 30,
      comparedWith: null,
      evaluation: {},
      promote: true,
      findings: [],
      reasons: ['by hand'],
      at: Date.now(),
      dataReadAt,
    });
    expect(recorded).toEqual({ outcome: 'recorded' });
    // The first write found the erasure's questions new and wrote nothing; the second stored it without them.
    expect(storedAfterWrites).toEqual([false, true]);
    expectScrubbed(await artifact(p, 'v1'));
  });

  it('reads what an erasure kept before questions were hashed', async () => {
    const p = await newProject();
    const legacy = [termSetKey(remembered(erasedQueries[0]!).terms), termSetKey(remembered(erasedQueries[1]!).terms)];
    await env.DB.batch(
      legacy.map((key) => env.DB.prepare(`insert into erasure_memory (project_id, user_id_hash, kind, key) values (?, ?, 'terms', ?)`).bind(p.id, ERASED, key)),
    );
    await store(p, modelWithMemory('v1'), null, Date.now());
    expectScrubbed(await artifact(p, 'v1'));
    await eraseAll(p);
    const { results } = await env.DB.prepare('select key from erased_questions where project_id = ?').bind(p.id).all<{ key: string }>();
    expect(results).toHaveLength(2);
    expect(results.every((r) => isTermSetHash(r.key))).toBe(true);
  });

  it('remembers erased questions for a day after the erasure, then retention deletes them', async () => {
    const p = await newProject();
    await twoUsers(p);
    await eraseAll(p);
    const kept = () => env.DB.prepare('select count(*) as n from erased_questions where project_id = ?').bind(p.id).first<{ n: number }>();
    await runNightly(env, Date.now() + 60_000, { projects: [p.id] });
    expect(await kept()).toEqual({ n: 2 });
    const summary = await runNightly(env, Date.now() + TRAINING_DATA_MAX_AGE_MS + 60_000, { projects: [p.id] });
    expect(summary.runs[0]!.stages.find((s) => s.name === 'retention')!.counts.erasedQuestions).toBe(2);
    expect(await kept()).toEqual({ n: 0 });
    // A model of unknown age is stored as trained then.
    await store(p, modelWithMemory('v1'), null);
    expect((await artifact(p, 'v1')).memory.queries).toHaveLength(4);
  });
});
