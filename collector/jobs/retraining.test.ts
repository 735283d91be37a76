import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ModelRegistry } from '../../shared/admin-api/models.ts';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { queryKey } from '../../shared/terms.ts';
import { utcDay } from '../../shared/time.ts';
import type { TrainingData } from '../../shared/training/data.ts';
import { EVAL_LAYERS, isHeldOut, isoWeek } from '../loop/eval-sets.ts';
import { recordModel } from '../storage/models.ts';
import { answerItem } from '../storage/review.ts';
import { evalQueries, trainingData } from '../storage/training-data.ts';
import { adminCall as admin, bearer, bySession, call, event, newProject, ORIGIN, trace } from '../test/fixtures.ts';
import { tinyModel } from '../test/tiny-model.ts';
import { runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;
/** Who asked: a trace's session and hashed user. */
type Origin = (topic: number, answer: number) => { sessionId: string; userIdHash: string };
const DAY = 86_400_000;
/** Topics in each world: enough judged held-out queries for the gate (10) and confirmed examples for training (30). */
const TOPICS = 16;
const everyoneApart =
  (prefix: string): Origin =>
  (t, k) => ({ sessionId: `${prefix}-${t}-${k}`, userIdHash: `${prefix}-u-${t}-${k}` });

/** The first wording of a topic's question that lands on the wanted side of the train / held-out split. */
const wording = (make: (i: number) => string, heldOut: boolean) => {
  for (let i = 0; ; i++) if (isHeldOut(queryKey(make(i))) === heldOut) return make(i);
};

const filler = 'method results cohort analysis measured across several independent sites during follow up';
const chunksOf = (t: number) => [
  { chunkId: `dis-${t}`, sourceDocId: `dis-${t}.md`, score: 12, rank: 1, text: `alpha${t} gamma${t} alpha${t}` },
  { chunkId: `noise-${t}`, sourceDocId: `noise-${t}.md`, score: 8, rank: 2, text: `gamma${t} ${filler}` },
  { chunkId: `rel-${t}`, sourceDocId: `rel-${t}.md`, score: 6, rank: 3, text: `alpha${t} beta${t} gamma${t} ${filler} ${filler}` },
];

/**
 * Per topic, a question asked in a training wording and in a held-out one; each gets a bad answer
 * (a thumbs-down and a wrong-source flag on the distractor retrieval put first) and a good one
 * (a thumbs-up, a click and a copy of the relevant chunk retrieval put third).
 */
async function topicTraffic(p: Project, topics: number, origin: Origin, now: number) {
  const traces: TraceInput[] = [];
  const events: Parameters<typeof event>[0][] = [];
  for (let t = 0; t < topics; t++) {
    // Two training wordings: with each left out of its own features, the other one teaches.
    const queries = [
      wording((i) => `alpha${t} beta${t} gamma${t} delta${t} w${i}`, false),
      wording((i) => `alpha${t} beta${t} delta${t} omega${t} x${i}`, false),
      wording((i) => `alpha${t} gamma${t} epsilon${t} v${i}`, true),
    ];
    for (const [k, query] of queries.entries()) {
      const bad = trace({ query, retrievedChunks: chunksOf(t), rerankedChunks: undefined, ...origin(t, 2 * k), createdAt: now - 3_600_000 });
      const good = trace({ query, retrievedChunks: chunksOf(t), rerankedChunks: undefined, ...origin(t, 2 * k + 1), createdAt: now - 3_000_000 });
      traces.push(bad, good);
      events.push(
        { traceId: bad.traceId, sessionId: bad.sessionId!, signalType: 'thumbs_down' },
        { traceId: bad.traceId, sessionId: bad.sessionId!, signalType: 'wrong_source', detail: { chunkId: `dis-${t}` } },
        { traceId: good.traceId, sessionId: good.sessionId!, signalType: 'thumbs_up' },
        { traceId: good.traceId, sessionId: good.sessionId!, signalType: 'citation_click', detail: { chunkId: `rel-${t}` } },
        { traceId: good.traceId, sessionId: good.sessionId!, signalType: 'copy_source', detail: { chunkId: `rel-${t}`, chars: 60 } },
      );
    }
  }
  for (let i = 0; i < traces.length; i += 50)
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces.slice(i, i + 50) })).status).toBe(200);
  for (const session of bySession(events))
    for (let i = 0; i < session.length; i += 50) {
      const batch = session.slice(i, i + 50).map((e) => event(e));
      const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: batch } });
      expect(res.status).toBe(200);
    }
}

/** A reviewer who knows the truth: the rel- chunks answer their topic's question. */
async function reviewEverything(p: Project): Promise<number> {
  const { body } = await admin<{ items: { id: string; chunk: { chunkId: string } }[] }>(p, '/review?limit=500');
  for (const item of body.items)
    await admin(p, `/review/${item.id}`, { method: 'POST', json: { verdict: item.chunk.chunkId.startsWith('rel-') ? 'relevant' : 'not_relevant' } });
  return body.items.length;
}

interface Models {
  current: string | null;
  models: {
    version: string;
    decision: string;
    reasons: string[];
    findings: unknown[];
    confirmed: number;
    evaluation: { candidate: { overall: { ndcg5: number } }; current: { overall: { ndcg5: number } } };
  }[];
}

/** A project with the topics' traffic, its first night run and every item it mined reviewed. */
async function reviewedWorld(origin: Origin, settings: Record<string, number> = {}) {
  const p = await newProject();
  await topicTraffic(p, TOPICS, origin, Date.now() + 1_000);
  // After the traffic: the night's window covers every event sent, however long sending took.
  const night1 = Date.now() + 1_000;
  expect((await admin(p, '/settings', { method: 'PUT', json: { reviewMinutesPerWeek: 600, trainingMinConfirmed: 20, ...settings } })).status).toBe(200);
  await runNightly(env, night1, { projects: [p.id] });
  const reviewed = await reviewEverything(p);
  return { p, night1, reviewed };
}

async function trainedWorld(origin: Origin, settings: Record<string, number> = {}) {
  const { p, night1, reviewed } = await reviewedWorld(origin, settings);
  const summary = await runNightly(env, night1 + DAY, { projects: [p.id] });
  return { p, summary, night2: night1 + DAY, reviewed };
}

describe('retraining in the nightly job', { timeout: 120_000 }, () => {
  it('leaves training to the next night when a missed night is run after a later one', async () => {
    const p = await newProject();
    await topicTraffic(p, TOPICS, everyoneApart('m'), Date.now() + 1_000);
    const night1 = Date.now() + 1_000;
    expect((await admin(p, '/settings', { method: 'PUT', json: { reviewMinutesPerWeek: 600, trainingMinConfirmed: 20 } })).status).toBe(200);
    await runNightly(env, night1, { projects: [p.id] });
    // A later night runs before anything is reviewed; the night between is missed.
    await runNightly(env, night1 + 2 * DAY, { projects: [p.id] });
    expect(await reviewEverything(p)).toBeGreaterThanOrEqual(6 * TOPICS);
    const trainLine = async (night: number) => (await runNightly(env, night, { projects: [p.id] })).runs[0]!.stages.find((s) => s.name === 'train')!;
    // Run afterwards, it would record a model under its older night, trained on today's answers.
    expect((await trainLine(night1 + DAY)).counts).toEqual({ laterNightDone: 1 });
    expect((await admin<Models>(p, '/models')).body.models).toEqual([]);
    expect((await trainLine(night1 + 3 * DAY)).counts).toMatchObject({ trained: 1 });
  });

  it('trains on confirmed items, promotes a model that beats retrieval on held-out queries, and serves it', async () => {
    const { p, summary, reviewed } = await trainedWorld(everyoneApart('s'));
    expect(reviewed).toBeGreaterThanOrEqual(6 * TOPICS);
    const { body } = await admin<Models>(p, '/models');
    expect(body.models[0]?.reasons).toEqual([expect.stringMatching(/^nDCG@5 /)]);
    expect(body.models[0]?.findings).toEqual([expect.objectContaining({ kind: 'passed', queries: expect.any(Number) })]);
    expect(summary.runs[0]!.stages.find((s) => s.name === 'train')!.counts).toMatchObject({ trained: 1, promoted: 1 });
    const [model] = body.models;
    expect(body.current).toBe(model!.version);
    expect(model!.decision).toBe('promoted');
    expect(model!.evaluation.candidate.overall.ndcg5).toBeGreaterThan(model!.evaluation.current.overall.ndcg5 + 0.05);

    const served = await call('/v1/reranker', { headers: bearer(p.keys.server) });
    expect(served.status).toBe(200);
    expect(served.headers.get('ETag')).toBe(`"${model!.version}"`);
    expect(((await served.json()) as { version: string }).version).toBe(model!.version);
    const again = await call('/v1/reranker', { headers: { ...bearer(p.keys.server), 'If-None-Match': `"${model!.version}"` } });
    expect(again.status).toBe(304);
    for (const tag of [`W/"${model!.version}"`, `"older", "${model!.version}"`, '*']) {
      expect((await call('/v1/reranker', { headers: { ...bearer(p.keys.server), 'If-None-Match': tag } })).status, tag).toBe(304);
    }
    expect((await call('/v1/reranker', { headers: { ...bearer(p.keys.server), 'If-None-Match': '"older"' } })).status).toBe(200);
    expect((await call('/v1/reranker', { headers: bearer(p.keys.write) })).status).toBe(403);

    // A question no one asked, about topic 7: the relevant chunk retrieval put third now leads.
    const ranked = await call('/v1/rerank', { method: 'POST', headers: bearer(p.keys.server), json: { query: 'alpha7 gamma7 zeta7', chunks: chunksOf(7) } });
    expect(((await ranked.json()) as { chunks: { chunkId: string }[] }).chunks[0]!.chunkId).toBe('rel-7');
    // Ids in the team's own format, as its traces carry them.
    const own = await call('/v1/rerank', {
      method: 'POST',
      headers: bearer(p.keys.server),
      json: { query: 'refunds', chunks: [{ chunkId: '退款政策 § 2', sourceDocId: 'refunds.md § 2', text: 'Refunds within 14 days' }] },
    });
    expect(own.status).toBe(200);

    const health = await admin<{ snapshots: { metrics: Record<string, number | null> }[] }>(p, '/health');
    expect(health.body.snapshots[0]!.metrics).toMatchObject({ loopClosureRate: 1, retrainsMet: 1, retrainsPlanned: 4 });
    // Trained on every example: nothing new to train on until reviewers confirm more.
    const queue = await admin<{ training: { examples: number; trainedOn: number; ready: boolean } }>(p, '/review');
    expect(queue.body.training).toEqual(expect.objectContaining({ examples: model!.confirmed, trainedOn: model!.confirmed, ready: false }));

    // What `npm run retrain` reads over the API is what the job read, every candidate with its text (the response is streamed).
    const at = Date.now();
    const read = await admin<{ data: TrainingData; evalQueries: unknown[] }>(p, `/training-data?at=${at}`);
    expect(read.status).toBe(200);
    expect(read.body.data.lists.length).toBeGreaterThan(0);
    expect(read.body.data).toEqual(JSON.parse(JSON.stringify(await trainingData(env.DB, p.id, at))));
    expect(read.body.evalQueries).toEqual(JSON.parse(JSON.stringify(await evalQueries(env.DB, p.id))));
  });

  it("ranks in retrieval's order while the served model cannot be read, and replaces it with one that beats retrieval", async () => {
    const { p, night1 } = await reviewedWorld(everyoneApart('u'));
    // Stored and served before artifacts were checked as they are now: its vector is not base64.
    const legacy = { ...tinyModel('legacy-1'), memory: { queries: [{ terms: ['alpha7'], vector: 'not base64!!' }], judgements: [] } };
    const stored = await recordModel(env.DB, p.id, {
      model: legacy,
      trainedBy: 'retrain',
      confirmed: 0,
      comparedWith: null,
      evaluation: {},
      promote: true,
      findings: [],
      reasons: ['uploaded'],
      // Weeks ago: retraining is due.
      at: night1 - 30 * DAY,
    });
    expect(stored.outcome).toBe('recorded');
    const ranked = await call('/v1/rerank', { method: 'POST', headers: bearer(p.keys.server), json: { query: 'alpha7 gamma7 zeta7', chunks: chunksOf(7) } });
    expect(ranked.status).toBe(200);
    const body = (await ranked.json()) as { version: string | null; chunks: { chunkId: string }[] };
    expect(body).toMatchObject({ version: null });
    expect(body.chunks.map((c) => c.chunkId)).toEqual(chunksOf(7).map((c) => c.chunkId));

    const summary = await runNightly(env, night1 + DAY, { projects: [p.id] });
    const train = summary.runs[0]!.stages.find((s) => s.name === 'train')!;
    expect(train.counts).toMatchObject({ trained: 1, promoted: 1 });
    expect(train.note).toContain('the served legacy-1 cannot be read');
    const { body: models } = await admin<Models & { models: { comparedWith: string | null }[] }>(p, '/models');
    expect(models.current).toBe(models.models[0]!.version);
    expect(models.models[0]!.comparedWith).toBe('legacy-1');
  });

  it("dates what a night run far from the clock writes at its `at`: the model, its artifact, the gate's promotion and the week's eval sets", async () => {
    const { p, night1 } = await reviewedWorld(everyoneApart('a'));
    // A simulated night over a week ahead, asked for as `npm run loop:eval` asks, in as many calls as it takes.
    const at = night1 + 8 * DAY;
    for (let calls = 0, done = false; !done; calls++) {
      expect(calls).toBeLessThan(10);
      const res = await call(`/v1/admin/nightly?at=${at}&simulate=true`, { method: 'POST', headers: bearer(p.keys.admin) });
      expect(res.status).toBe(200);
      done = ((await res.json()) as { runs: { status: string }[] }).runs[0]!.status === 'done';
    }
    const version = `nightly-${utcDay(at)}`;
    const { body } = await admin<ModelRegistry>(p, '/models');
    expect(body.models.map((m) => ({ version: m.version, createdAt: m.createdAt, decision: m.decision }))).toEqual([
      { version, createdAt: at, decision: 'promoted' },
    ]);
    expect(body.rollouts).toEqual([expect.objectContaining({ at, action: 'promote', from: null, to: version, by: 'gate' })]);
    expect((await admin<{ createdAt: number }>(p, `/models/${version}`)).body.createdAt).toBe(at);
    const sets = (await admin<{ sets: { version: string; createdAt: number }[] }>(p, '/eval-sets')).body.sets.filter((s) => s.version === isoWeek(utcDay(at)));
    expect(sets.map((s) => s.createdAt)).toEqual(EVAL_LAYERS.map(() => at));
    // The night's snapshot names the model it served, as the rollouts replayed up to its moment say.
    expect((await admin<{ latest: { day: string; servedModel: string | null } }>(p, '/health')).body.latest).toMatchObject({
      day: utcDay(at),
      servedModel: version,
    });
  });

  it('changes nothing when the night runs again, and waits for the schedule', async () => {
    const { p, night2 } = await trainedWorld(everyoneApart('r'));
    const before = await admin<Models>(p, '/models');
    await runNightly(env, night2 + 60_000, { projects: [p.id] });
    await runNightly(env, night2 + 2 * DAY, { projects: [p.id] });
    expect((await admin<Models>(p, '/models')).body).toEqual(before.body);
    expect(before.body.models).toHaveLength(1);
  });

  it('retrains a week on for a changed answer that makes an example, not for one on a held-out question', async () => {
    const { p, night2 } = await trainedWorld(everyoneApart('h'));
    await new Promise((r) => setTimeout(r, 5));
    const { body } = await admin<{ items: { id: string; query: string; verdict: string }[] }>(p, '/review?status=answered&limit=500');
    const flip = async (heldOut: boolean) => {
      const item = body.items.find((i) => isHeldOut(queryKey(i.query)) === heldOut)!;
      const verdict = item.verdict === 'relevant' ? 'not_relevant' : 'relevant';
      expect((await admin(p, `/review/${item.id}`, { method: 'POST', json: { verdict } })).status).toBe(200);
    };
    const trainLine = async (night: number) => (await runNightly(env, night, { projects: [p.id] })).runs[0]!.stages.find((s) => s.name === 'train')!.counts;
    // An answer changed on a held-out question feeds the eval sets, not the training: nothing to retrain on.
    await flip(true);
    expect(await trainLine(night2 + 7 * DAY)).toEqual({ nothingNew: 1 });
    // One changed on a training question does.
    await flip(false);
    expect(await trainLine(night2 + 8 * DAY)).not.toHaveProperty('nothingNew');
  });

  it("counts an answer stamped before a night's training read its data but saved after it as new to its model", async () => {
    const { p } = await trainedWorld(everyoneApart('b'));
    type Training = { training: { examples: number; trainedOn: number; ready: boolean } };
    expect((await admin<Training>(p, '/review')).body.training).toMatchObject({ ready: false });
    const read = await env.DB.prepare('select data_read_at as at from models where project_id = ?').bind(p.id).first<{ at: number }>();
    const { body } = await admin<{ items: { id: string; query: string; verdict: 'relevant' | 'not_relevant' }[] }>(p, '/review?status=answered&limit=500');
    const item = body.items.find((i) => !isHeldOut(queryKey(i.query)))!;
    // The reviewer's request read its clock a second before the training's read, and saved the answer after the night.
    const verdict = item.verdict === 'relevant' ? 'not_relevant' : 'relevant';
    expect(await answerItem(env.DB, p.id, item.id, verdict, null, read!.at - 1_000)).toBe('answered');
    expect((await admin<Training>(p, '/review')).body.training).toMatchObject({ ready: true });
  });

  it('counts an answer changed after a night run days ahead of the clock trained as new to its model, whatever night the model is dated', async () => {
    const { p, night1 } = await reviewedWorld(everyoneApart('k'));
    // A simulated night over a week ahead trains; the reviewer answers by the real clock, before that night's date.
    const ahead = night1 + 8 * DAY;
    const trainLine = async (night: number) => (await runNightly(env, night, { projects: [p.id] })).runs[0]!.stages.find((s) => s.name === 'train')!.counts;
    expect(await trainLine(ahead)).toMatchObject({ trained: 1 });
    type Training = { training: { examples: number; trainedOn: number; ready: boolean } };
    const before = (await admin<Training>(p, '/review')).body.training;
    expect(before).toMatchObject({ ready: false });
    expect(before.trainedOn).toBe(before.examples);
    await new Promise((r) => setTimeout(r, 5));
    const { body } = await admin<{ items: { id: string; query: string; verdict: string }[] }>(p, '/review?status=answered&limit=500');
    const item = body.items.find((i) => !isHeldOut(queryKey(i.query)))!;
    const verdict = item.verdict === 'relevant' ? 'not_relevant' : 'relevant';
    expect((await admin(p, `/review/${item.id}`, { method: 'POST', json: { verdict } })).status).toBe(200);

    // As many examples as the model was trained on, one of them changed since its training read them.
    expect((await admin<Training>(p, '/review')).body.training).toEqual(expect.objectContaining({ examples: before.examples, ready: true }));
    expect((await admin<{ newExamples: boolean }>(p, '/training-data')).body.newExamples).toBe(true);
    // The next night is not due (the schedule counts from the model's night), and its closure leaves the changed example out.
    expect(await trainLine(ahead + DAY)).toEqual({ notDue: 1 });
    const health = await admin<{ latest: { day: string; metrics: Record<string, number | null> } }>(p, '/health');
    expect(health.body.latest.day).toBe(utcDay(ahead + DAY));
    expect(health.body.latest.metrics.loopClosureRate).toBeCloseTo((before.examples - 1) / before.examples, 10);
    // A week on from the model's night, it retrains on the change.
    expect(await trainLine(ahead + 7 * DAY)).toMatchObject({ trained: 1 });
  });

  it('leaves retraining to `npm run retrain` when retrainEveryDays is 0, and plans none', async () => {
    const { p, summary, reviewed } = await trainedWorld(everyoneApart('x'), { retrainEveryDays: 0 });
    expect(reviewed).toBeGreaterThanOrEqual(6 * TOPICS);
    const train = summary.runs[0]!.stages.find((s) => s.name === 'train')!;
    expect(train.counts).toEqual({ outsideTheJob: 1 });
    expect(train.note).toBe('retraining runs outside the job (retrainEveryDays 0)');
    expect((await admin<Models>(p, '/models')).body).toEqual({ current: null, models: [], rollouts: [] });
    const health = await admin<{ snapshots: { metrics: Record<string, number | null> }[] }>(p, '/health');
    expect(health.body.snapshots[0]!.metrics).toMatchObject({ retrainsPlanned: null });
  });

  it("measures the gain on the team's curated suite, and trains on none of its questions", async () => {
    const p = await newProject();
    await topicTraffic(p, TOPICS, everyoneApart('c'), Date.now() + 1_000);
    const night1 = Date.now() + 1_000;
    expect((await admin(p, '/settings', { method: 'PUT', json: { reviewMinutesPerWeek: 600, trainingMinConfirmed: 20 } })).status).toBe(200);
    // The team's own questions: topics 0-11 in the first wording users asked them in, judged by document.
    const curated = Array.from({ length: 12 }, (_, t) => wording((i) => `alpha${t} beta${t} gamma${t} delta${t} w${i}`, false));
    for (const [t, query] of curated.entries()) {
      const candidates = chunksOf(t).map(({ chunkId, sourceDocId, text, score }) => ({ chunkId, sourceDocId, text, score }));
      const judgements = [
        { sourceDocId: `rel-${t}.md`, relevance: 1 },
        { sourceDocId: `dis-${t}.md`, relevance: 0 },
      ];
      expect((await admin(p, `/eval-suite/topic-${t}`, { method: 'PUT', json: { query, candidates, judgements } })).status).toBe(200);
    }
    await runNightly(env, night1, { projects: [p.id] });
    await reviewEverything(p);
    await runNightly(env, night1 + DAY, { projects: [p.id] });
    const [model] = (await admin<Models>(p, '/models')).body.models;
    expect(model!.decision).toBe('promoted');
    expect(model!.findings).toEqual([expect.objectContaining({ kind: 'passed', queries: 12, basis: 'curated' })]);
    expect(model!.reasons).toEqual([expect.stringMatching(/ on 12 held-out queries, on the curated suite$/)]);
    // No curated question is held out: reviewers were asked nothing about them (an answer would train
    // nothing), and their engagement trained nothing.
    const keys = [...new Set(curated.map(queryKey))];
    const items = await env.DB.prepare(`select count(*) as n from review_items where project_id = ? and query_key in (select value from json_each(?))`)
      .bind(p.id, JSON.stringify(keys))
      .first<{ n: number }>();
    expect(items!.n).toBe(0);
    const data = await trainingData(env.DB, p.id, Date.now());
    expect(data.confirmed.length).toBeGreaterThan(0);
    expect(data.confirmed.filter((c) => keys.includes(c.queryKey))).toEqual([]);
    expect(data.queryEngagement.length).toBeGreaterThan(0);
    expect(data.queryEngagement.filter((r) => keys.includes(r.queryKey!))).toEqual([]);
    // What `npm run retrain` reads holds the suite as the curated layer.
    expect((await evalQueries(env.DB, p.id)).filter((q) => q.layer === 'curated')).toHaveLength(12);
  });

  it('refuses a batch one user raised, and says so', async () => {
    const { p, summary, reviewed } = await trainedWorld((t, k) => ({ sessionId: `d-${t}-${k}`, userIdHash: 'one-busy-user' }));
    expect(reviewed).toBeGreaterThan(20);
    const train = summary.runs[0]!.stages.find((s) => s.name === 'train')!;
    expect(train.counts).toMatchObject({ refused: 1 });
    expect(train.note).toMatch(/^not trained: one user \(one-busy-user\) raised 100% of the batch/);
    expect((await admin<Models>(p, '/models')).body).toEqual({ current: null, models: [], rollouts: [] });
    expect((await call('/v1/reranker', { headers: bearer(p.keys.server) })).status).toBe(404);
  });
});

describe('the registry', { timeout: 120_000 }, () => {
  it('rolls back to the model served before, and then to retrieval order', async () => {
    const { p } = await trainedWorld(everyoneApart('b'));
    const first = (await admin<Models>(p, '/models')).body.current!;
    const artifact = await (await call(`/v1/admin/models/${first}`, { headers: bearer(p.keys.admin) })).json();
    const posted = await admin(p, '/models', {
      method: 'POST',
      json: {
        model: { ...(artifact as object), version: 'retrain-2' },
        confirmed: 96,
        comparedWith: first,
        evaluation: {},
        promote: true,
        reasons: ['by hand'],
      },
    });
    expect(posted).toMatchObject({ status: 201, body: { current: 'retrain-2' } });
    expect((await admin(p, '/models', { method: 'POST', json: { model: { version: 'x' } } })).body).toMatchObject({ error: { code: 'invalid_model' } });

    // The reason is optional, and so is the body that would carry it (`curl -X POST`).
    expect((await admin(p, '/models/rollback', { method: 'POST' })).body).toEqual({ rolledBack: 'retrain-2', current: first });
    const served = await call('/v1/reranker', { headers: bearer(p.keys.server) });
    expect(served.headers.get('ETag')).toBe(`"${first}"`);
    expect((await admin(p, '/models/rollback', { method: 'POST', json: { reason: 'bad week' } })).body).toEqual({ rolledBack: first, current: null });
    expect((await call('/v1/reranker', { headers: bearer(p.keys.server) })).status).toBe(404);
    expect((await admin(p, '/models/rollback', { method: 'POST', json: {} })).status).toBe(409);
    // An array is not a reason: refused, and nothing promoted.
    expect(await admin(p, '/models/retrain-2/promote', { method: 'POST', json: [] })).toMatchObject({ status: 400, body: { error: { field: 'body' } } });
    expect((await call('/v1/reranker', { headers: bearer(p.keys.server) })).status).toBe(404);
    expect((await admin(p, '/models/retrain-2/promote', { method: 'POST' })).body).toEqual({ current: 'retrain-2' });
    expect((await admin(p, '/models/nope/promote', { method: 'POST', json: {} })).status).toBe(404);
  });
});
