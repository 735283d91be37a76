import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createReranker } from '../../../client/reranker.ts';
import type { ModelRegistry } from '../../../shared/admin-api/models.ts';
import type { RerankerModel } from '../../../shared/reranker/model.ts';
import { MAX_GATE_FINDINGS, MAX_MODEL_EVALUATION_BYTES } from '../../../shared/thresholds.ts';
import { recordModel, rollBack } from '../../storage/models.ts';
import { adminCall as admin, bearer, call, newProject } from '../../test/fixtures.ts';
import { hookedD1, once } from '../../test/hooked-d1.ts';
import { tinyModel } from '../../test/tiny-model.ts';

const model = tinyModel;

const trained = (m: RerankerModel, promote = true) => ({ model: m, confirmed: 30, comparedWith: null, evaluation: {}, promote, reasons: ['by hand'] });

/** POSTs a body as raw text, so it can hold numbers JSON.stringify cannot write (1e400). */
const postRaw = (p: { keys: { admin: string } }, path: string, body: string) =>
  call(`/v1/admin${path}`, { method: 'POST', headers: { ...bearer(p.keys.admin), 'content-type': 'application/json' }, body });

const rerank = (
  p: { keys: { server: string } },
  chunks: { chunkId: string; text: string; score?: number }[] = [{ chunkId: 'c1', text: 'Refunds within 14 days', score: 0.4 }],
) => call('/v1/rerank', { method: 'POST', headers: bearer(p.keys.server), json: { query: 'refunds', chunks } });

describe('POST /v1/admin/models', () => {
  it.each([
    ['"weights":[1]', '"weights":[1e400]', 'model.weights[0]'],
    ['"mean":[0.5]', '"mean":[-1e400]', 'model.mean[0]'],
    ['"c1":[1,0]', '"c1":[1e999,0]', 'model.priors.chunks.c1[0]'],
    ['"baseRate":0.1', '"baseRate":1e400', 'model.engagement.baseRate'],
    ['"scale":[0.25]', '"scale":[0]', 'model.scale[0]'],
    // Positive, but dividing by it makes every score Infinity, then NaN.
    ['"scale":[0.25]', '"scale":[5e-324]', 'model.scale[0]'],
    // A feature this version cannot compute: ranking with it would throw.
    ['"features":["retrieval_score"]', '"features":["clicks_next_week"]', 'model.features[0]'],
    // Not base64: every ranking with the model, once served, would throw unpacking it.
    ['"queries":[]', '"queries":[{"terms":["refund"],"vector":"not base64!!"}]', 'model.memory.queries[0].vector'],
    // A field this version does not know (a typo) would be dropped, and the model stored without it.
    ['"weights":[1]', '"weights":[1],"wieghts":[2]', 'model.wieghts'],
    ['"baseRate":0.1', '"baseRate":0.1,"baserate":0.2', 'model.engagement.baserate'],
    ['"c1":[1,0]', '"c1":[1,0,7]', 'model.priors.chunks.c1[2]'],
    // Stored, no URL could reach it: URL parsing drops a path's dot segments.
    ['"version":"bad"', '"version":"."', 'model.version'],
    ['"version":"bad"', '"version":".."', 'model.version'],
    // Kept as sent, but JSON cannot carry Infinity back: it would be stored as null.
    ['"evaluation":{}', '"evaluation":{"holdout":{"ndcg5":[0.7,1e400]}}', 'evaluation'],
    // More confirmed examples than the job could ever count: no later count would look new.
    ['"confirmed":30,"comparedWith"', '"confirmed":1e300,"comparedWith"', 'confirmed'],
  ])('refuses an artifact with %s written as %s, naming it, and keeps the registry as it was', async (from, to, field) => {
    const p = await newProject();
    expect((await admin(p, '/models', { method: 'POST', json: trained(model('good')) })).status).toBe(201);
    const before = await admin(p, '/models');

    const body = JSON.stringify(trained(model('bad')));
    expect(body).toContain(from);
    const res = await postRaw(p, '/models', body.replace(from, to));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_model', field } });

    expect(await admin(p, '/models')).toEqual(before);
    expect((await call('/v1/admin/models/bad', { headers: bearer(p.keys.admin) })).status).toBe(404);
    expect((await rerank(p)).status).toBe(200);
  });

  it('refuses an evaluation nested deeper than any gate writes, naming it, instead of overflowing the stack', async () => {
    const p = await newProject();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await postRaw(p, '/models', JSON.stringify(trained(model('deep'))).replace('"evaluation":{}', `"evaluation":{"holdout":${deep}}`));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_model', field: 'evaluation' } });
    expect((await admin(p, '/models')).body).toMatchObject({ models: [] });
  });

  it('refuses an evaluation or reasons past their caps, naming the field, rather than a write D1 would refuse (a value over 2 MB)', async () => {
    const p = await newProject();
    // `{"pad":"…"}`: 10 bytes around the padding.
    const evaluation = (bytes: number) => ({ pad: 'x'.repeat(bytes - 10) });
    expect(JSON.stringify(evaluation(MAX_MODEL_EVALUATION_BYTES))).toHaveLength(MAX_MODEL_EVALUATION_BYTES);
    const refused = [
      { body: { ...trained(model('big-evaluation')), evaluation: evaluation(MAX_MODEL_EVALUATION_BYTES + 1) }, field: 'evaluation' },
      { body: { ...trained(model('many-reasons')), reasons: Array.from({ length: MAX_GATE_FINDINGS + 1 }, () => 'by hand') }, field: 'reasons' },
    ];
    for (const { body, field } of refused) {
      const res = await admin(p, '/models', { method: 'POST', json: body });
      expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_model', field } } });
    }
    expect((await admin(p, '/models')).body).toMatchObject({ models: [] });
    // At the caps, taken.
    const atCaps = { ...trained(model('at-caps')), evaluation: evaluation(MAX_MODEL_EVALUATION_BYTES), reasons: Array(MAX_GATE_FINDINGS).fill('by hand') };
    expect((await admin(p, '/models', { method: 'POST', json: atCaps })).status).toBe(201);
  });

  it('refuses a version of . or .., which no URL could reach once stored', async () => {
    const p = await newProject();
    for (const version of ['.', '..']) {
      const res = await admin(p, '/models', { method: 'POST', json: trained(model(version)) });
      expect(res).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_model', field: 'model.version', message: 'cannot be . or .., which a URL path cannot name' } },
      });
    }
    expect((await admin(p, '/models')).body).toMatchObject({ current: null, models: [] });
  });

  it('keeps evidence and evaluations under ids named constructor, prototype or __proto__, serves them as sent and ranks by them', async () => {
    const p = await newProject();
    // As JSON.parse reads a body: `__proto__` is an own key there, as the others are.
    const documents = JSON.parse('{"constructor":[5,0],"prototype":[0,5],"__proto__":[3,0]}');
    const evaluation = JSON.parse('{"constructor":{"ndcg5":0.5},"__proto__":{"ndcg5":0.4}}');
    const m = { ...model('ids'), features: ['document_prior'], mean: [0], scale: [1], priors: { chunks: {}, documents } } as RerankerModel;
    expect((await admin(p, '/models', { method: 'POST', json: { ...trained(m), evaluation } })).status).toBe(201);

    const artifact = await call('/v1/admin/models/ids', { headers: bearer(p.keys.admin) });
    expect(JSON.stringify((JSON.parse(await artifact.text()) as RerankerModel).priors.documents)).toBe(JSON.stringify(documents));
    const { body } = await admin<{ models: { evaluation: unknown }[] }>(p, '/models');
    expect(JSON.stringify(body.models[0]!.evaluation)).toBe(JSON.stringify(evaluation));

    const ranked = await call('/v1/rerank', {
      method: 'POST',
      headers: bearer(p.keys.server),
      json: {
        query: 'q',
        chunks: ['prototype', 'toString', '__proto__', 'constructor'].map((doc, i) => ({ chunkId: `c${i}`, sourceDocId: doc, text: 'x', score: 1 })),
      },
    });
    expect(ranked.status).toBe(200);
    const { chunks } = (await ranked.json()) as { chunks: { chunkId: string }[] };
    // Judged relevant five times, three times, never judged, judged not relevant five times.
    expect(chunks.map((c) => c.chunkId)).toEqual(['c3', 'c2', 'c1', 'c0']);
  });

  it('stores a model longer than D1 takes in one value in parts, each under 2 MB, and serves it whole', async () => {
    const p = await newProject();
    // A memory of 6,000 judged questions in Chinese: about 1.1 million UTF-16 units, 3.2 MB in UTF-8.
    const queries = Array.from({ length: 6_000 }, (_, i) => ({ terms: [`退货${i}`, '已拆封的商品能否退款以及需要多少天'.repeat(10), `😀${i}`] }));
    const big = { ...model('big'), memory: { queries, judgements: [{ query: 0, chunkId: 'c1', sourceDocId: 'd1', relevance: 1 as const }] } };
    const sent = JSON.stringify(big);
    expect(new TextEncoder().encode(sent).length).toBeGreaterThan(3_000_000);
    expect((await admin(p, '/models', { method: 'POST', json: trained(big) })).status).toBe(201);

    const served = await call('/v1/admin/models/big', { headers: bearer(p.keys.admin) });
    expect(await served.text()).toBe(sent);
    const stored = await env.DB.prepare(
      `select max(length(cast(artifact as blob))) as n, count(*) as rows from models where project_id = ?1
       union all select max(length(cast(text as blob))), count(*) from model_parts where project_id = ?1`,
    )
      .bind(p.id)
      .all<{ n: number; rows: number }>();
    expect(stored.results[1]!.rows).toBeGreaterThanOrEqual(2);
    for (const r of stored.results) expect(r.n).toBeLessThan(2_000_000);
    const { body } = await admin<{ models: { bytes: number }[] }>(p, '/models');
    expect(body.models[0]!.bytes).toBe(new TextEncoder().encode(sent).length);
    expect((await rerank(p)).status).toBe(200);
  });

  it("keeps the gate's findings as data beside its reasons, refuses a finding it cannot read, and takes a body without them", async () => {
    const p = await newProject();
    const findings = [
      { kind: 'gain_too_small', gain: 0.001, minimum: 0.005 },
      { kind: 'layer_loses', layer: 'variant', loss: 0.03, tolerance: 0.02 },
    ];
    expect((await admin(p, '/models', { method: 'POST', json: { ...trained(model('with'), false), findings } })).status).toBe(201);
    const bad = await admin(p, '/models', { method: 'POST', json: { ...trained(model('bad'), false), findings: [{ kind: 'layer_loses', layer: 'variant' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_model', field: 'findings[0].loss' } });
    const misspelt = { kind: 'gain_too_small', gain: 0.001, minimum: 0.005, minimun: 0.01 };
    const typo = await admin(p, '/models', { method: 'POST', json: { ...trained(model('bad'), false), findings: [misspelt] } });
    expect(typo).toMatchObject({ status: 400, body: { error: { code: 'invalid_model', field: 'findings[0].minimun', message: 'is not a field this takes' } } });
    const contradicting = await admin(p, '/models', { method: 'POST', json: { ...trained(model('bad'), true), findings } });
    expect(contradicting.status).toBe(400);
    expect(contradicting.body).toMatchObject({ error: { code: 'invalid_model', field: 'findings' } });
    expect((await admin(p, '/models', { method: 'POST', json: trained(model('without'), false) })).status).toBe(201);
    const { body } = await admin<{ models: { version: string; findings: unknown[]; reasons: string[] }[] }>(p, '/models');
    expect(Object.fromEntries(body.models.map(({ version, findings, reasons }) => [version, { findings, reasons }]))).toEqual({
      without: { findings: [], reasons: ['by hand'] },
      with: { findings, reasons: ['by hand'] },
    });
  });
});

describe('POST /v1/rerank', () => {
  it('scores every chunk with a number, even when retrieval scores span nearly all of the doubles', async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: trained(model('wide')) });
    const res = await rerank(p, [
      { chunkId: 'a', text: 'x', score: 1e308 },
      { chunkId: 'b', text: 'y', score: -1e308 },
      { chunkId: 'c', text: 'z', score: 0 },
    ]);
    const body = (await res.json()) as { chunks: { chunkId: string; rerankScore: unknown }[] };
    expect(body.chunks.map((c) => typeof c.rerankScore)).toEqual(['number', 'number', 'number']);
    expect(body.chunks.map((c) => c.chunkId)).toEqual(['a', 'c', 'b']);
  });

  it("keeps retrieval's order, naming no model, when the served model's weights overflow a score (an artifact made by hand)", async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: trained({ ...model('huge'), weights: [1e308] }) });
    const res = await rerank(p, [
      { chunkId: 'a', text: 'x', score: 0.1 },
      { chunkId: 'b', text: 'y', score: 0.9 },
    ]);
    expect(await res.json()).toEqual({
      version: null,
      chunks: [
        { chunkId: 'a', rerankScore: 0, retrievalRank: 1 },
        { chunkId: 'b', rerankScore: -1, retrievalRank: 2 },
      ],
    });
  });

  it('reads and parses the served artifact once per version and revision, and follows a rewrite, a promotion and a rollback at once', async () => {
    const p = await newProject();
    const ranked = async () => (await (await rerank(p)).json()) as { version: string | null; chunks: { rerankScore: number }[] };
    await admin(p, '/models', { method: 'POST', json: trained(model('v1')) });
    // retrieval_score is 1 for a lone chunk: (1 - 0.5) / 0.25 × weight 1.
    expect(await ranked()).toMatchObject({ version: 'v1', chunks: [{ rerankScore: 2 }] });
    // The stored text changed under the same revision (no write does this): the parsed model is what ranks.
    const artifact = (text: string, revision: number) =>
      env.DB.prepare('update models set artifact = ?, revision = ? where project_id = ? and version = ?').bind(text, revision, p.id, 'v1').run();
    await artifact('not json', 0);
    expect(await ranked()).toMatchObject({ version: 'v1', chunks: [{ rerankScore: 2 }] });
    // A rewrite (as erasure makes) counts a revision: read again.
    await artifact(JSON.stringify({ ...model('v1'), weights: [3] }), 1);
    expect(await ranked()).toMatchObject({ version: 'v1', chunks: [{ rerankScore: 6 }] });
    await admin(p, '/models', { method: 'POST', json: { ...trained(model('v2')), comparedWith: 'v1' } });
    expect(await ranked()).toMatchObject({ version: 'v2', chunks: [{ rerankScore: 2 }] });
    await admin(p, '/models/rollback', { method: 'POST' });
    expect(await ranked()).toMatchObject({ version: 'v1', chunks: [{ rerankScore: 6 }] });
    await admin(p, '/models/rollback', { method: 'POST' });
    expect(await ranked()).toMatchObject({ version: null });
  });
});

describe('POST /v1/rerank and GET /v1/reranker alike', () => {
  it('keep the model under the revision read with its text, so a rewrite landing between the revision and the text is not read again', async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: trained(model('v1')) });
    // An erasure's rewrite lands after the first call read which revision is served, before it reads the text.
    const rewrite = once(() =>
      env.DB.prepare('update models set artifact = ?, revision = 1 where project_id = ? and version = ?')
        .bind(JSON.stringify({ ...model('v1'), weights: [3] }), p.id, 'v1')
        .run(),
    );
    let reads = 0;
    const DB = hookedD1(env.DB, async ({ sql }, run) => {
      if (sql.some((s) => s.includes('from model_parts'))) {
        reads++;
        await rewrite();
      }
      return run();
    });
    const json = { query: 'refunds', chunks: [{ chunkId: 'c1', text: 'Refunds within 14 days', score: 0.4 }] };
    const ranked = async () => (await call('/v1/rerank', { method: 'POST', headers: bearer(p.keys.server), json, bindings: { DB } })).json();
    // retrieval_score is 1 for a lone chunk: (1 - 0.5) / 0.25 × the rewrite's weight 3.
    expect(await ranked()).toMatchObject({ version: 'v1', chunks: [{ rerankScore: 6 }] });
    expect(await ranked()).toMatchObject({ version: 'v1', chunks: [{ rerankScore: 6 }] });
    const polled = await call('/v1/reranker', { headers: { ...bearer(p.keys.server), 'If-None-Match': '"v1+1"' }, bindings: { DB } });
    expect(polled.status).toBe(304);
    expect(reads).toBe(1);
  });
});

describe('GET /v1/reranker', () => {
  it('says no model is served once the only one was rolled back, not that none was ever promoted', async () => {
    const p = await newProject();
    expect((await admin(p, '/models', { method: 'POST', json: trained(model('only')) })).status).toBe(201);
    expect((await admin(p, '/models/rollback', { method: 'POST' })).body).toEqual({ rolledBack: 'only', current: null });
    const res = await call('/v1/reranker', { headers: bearer(p.keys.server) });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'no_model', message: 'No model is served (none promoted, or the last one rolled back): rank in retrieval order', field: 'version' },
    });
  });

  it('reads the served artifact once a download, of a model not kept parsed yet too, and not at all for a backend that has it', async () => {
    const p = await newProject();
    expect((await admin(p, '/models', { method: 'POST', json: trained(model('v1')) })).status).toBe(201);
    let reads = 0;
    const DB = hookedD1(env.DB, async ({ sql }, run) => {
      if (sql.some((s) => s.includes('from model_parts'))) reads++;
      return run();
    });
    const get = (tag?: string) => call('/v1/reranker', { headers: { ...bearer(p.keys.server), ...(tag && { 'If-None-Match': tag }) }, bindings: { DB } });
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.headers.get('ETag')).toBe('"v1"');
    expect(JSON.parse(await first.text())).toMatchObject({ version: 'v1' });
    expect(reads).toBe(1);
    expect((await get('"v1"')).status).toBe(304);
    expect(reads).toBe(1);
    expect((await get()).status).toBe(200);
    expect(reads).toBe(2);
  });

  it('serves no model while the served artifact cannot be read, so a rollback to it stops clients ranking with the one rolled back', async () => {
    const p = await newProject();
    // Stored and served before artifacts were checked as they are now: its vector is not base64.
    const legacy = { ...model('legacy-1'), memory: { queries: [{ terms: ['refund'], vector: 'not base64!!' }], judgements: [] } };
    expect((await recordModel(env.DB, p.id, { ...trained(legacy), trainedBy: 'retrain', findings: [], at: Date.now() })).outcome).toBe('recorded');
    expect((await admin(p, '/models', { method: 'POST', json: { ...trained(model('v2')), comparedWith: 'legacy-1' } })).status).toBe(201);
    const errors: string[] = [];
    const reranker = createReranker({
      endpoint: 'http://collector.test',
      serverKey: p.keys.server,
      refreshMs: Number.POSITIVE_INFINITY,
      fetch: (r) => call(new URL(r.url).pathname, { headers: r.headers }),
      onError: (e) => errors.push(e.message),
    });
    await reranker.refresh();
    expect(reranker.version).toBe('v2');

    expect((await admin(p, '/models/rollback', { method: 'POST' })).body).toEqual({ rolledBack: 'v2', current: 'legacy-1' });
    for (const tag of [undefined, '"legacy-1"', '"v2", "legacy-1"']) {
      const res = await call('/v1/reranker', { headers: { ...bearer(p.keys.server), ...(tag && { 'If-None-Match': tag }) } });
      expect(res.status, tag).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'no_model', field: 'version' } });
    }
    // What POST /v1/rerank ranks by, retrieval's order, and what the client now ranks by too.
    expect(await (await rerank(p)).json()).toMatchObject({ version: null });
    await reranker.refresh();
    expect(reranker.version).toBeUndefined();
    expect(errors).toEqual([]);
  });
});

describe('the registry under repeated requests', () => {
  it('stores a version once when two requests record it at the same time, answering the other 409', async () => {
    const p = await newProject();
    const [a, b] = await Promise.all([
      admin(p, '/models', { method: 'POST', json: trained(model('twice')) }),
      admin(p, '/models', { method: 'POST', json: trained({ ...model('twice'), weights: [2] }) }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body).toMatchObject({ error: { code: 'model_exists', field: 'model.version' } });
    const { body } = await admin<{ current: string; models: { version: string }[] }>(p, '/models');
    expect(body.models.map((m) => m.version)).toEqual(['twice']);
    // One promotion, so one rollback goes back to retrieval's order.
    expect((await admin(p, '/models/rollback', { method: 'POST', json: {} })).body).toEqual({ rolledBack: 'twice', current: null });
  });

  it('does not serve a model its gate compared with another than users get now (a promotion in between), and stores nothing', async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: trained(model('A')) });
    // Trained against A by `npm run retrain`; meanwhile the nightly job served B.
    await admin(p, '/models', { method: 'POST', json: { ...trained(model('B')), comparedWith: 'A' } });
    const stale = await admin(p, '/models', { method: 'POST', json: { ...trained(model('C')), comparedWith: 'A' } });
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'stale_comparison', field: 'comparedWith' } } });
    const { body } = await admin<{ current: string; models: { version: string }[] }>(p, '/models');
    expect(body.current).toBe('B');
    expect(body.models.map((m) => m.version)).toEqual(['B', 'A']);
  });

  it('rolls back only the version named, when one is: a model served since is left alone, and the answer says which it is', async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: trained(model('r1')) });
    await admin(p, '/models', { method: 'POST', json: { ...trained(model('r2')), comparedWith: 'r1' } });
    // A reader decided to roll back r1 on a page loaded before r2 was promoted.
    const stale = await admin(p, '/models/rollback', { method: 'POST', json: { version: 'r1', reason: 'r1 regressed' } });
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'not_served', field: 'version', message: expect.stringContaining('r2') } } });
    expect((await admin<{ current: string }>(p, '/models')).body.current).toBe('r2');
    expect((await admin(p, '/models/rollback', { method: 'POST', json: { version: 'r2' } })).body).toEqual({ rolledBack: 'r2', current: 'r1' });
  });

  it('promotes only over the version named, when one is: a model served since is left alone, and the answer says which it is', async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: trained(model('p1')) });
    await admin(p, '/models', { method: 'POST', json: trained(model('p2'), false) });
    await admin(p, '/models', { method: 'POST', json: { ...trained(model('p3')), comparedWith: 'p1' } });
    // A reader decided to replace p1 with p2 on a page loaded before the gate served p3.
    const stale = await admin(p, '/models/p2/promote', { method: 'POST', json: { from: 'p1', reason: 'better on billing' } });
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'not_served', field: 'from', message: expect.stringContaining('p3') } } });
    expect((await admin<{ current: string }>(p, '/models')).body.current).toBe('p3');
    // Retrieval's order is named as null.
    expect((await admin(p, '/models/p2/promote', { method: 'POST', json: { from: null } })).status).toBe(409);
    expect((await admin(p, '/models/p2/promote', { method: 'POST', json: { from: 'p3' } })).body).toEqual({ current: 'p2' });
    const bad = await admin(p, '/models/p1/promote', { method: 'POST', json: { from: 7 } });
    expect(bad).toMatchObject({ status: 400, body: { error: { field: 'from' } } });
    expect((await admin<{ current: string }>(p, '/models')).body.current).toBe('p2');
  });

  it('refuses to promote the version already served, so a rollback still restores the one before', async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: trained(model('v1')) });
    await admin(p, '/models', { method: 'POST', json: trained(model('v2'), false) });

    const again = await admin(p, '/models/v1/promote', { method: 'POST', json: {} });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'already_current', field: 'version' } } });

    const both = await Promise.all([1, 2].map(() => admin(p, '/models/v2/promote', { method: 'POST', json: {} })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await admin(p, '/models/rollback', { method: 'POST', json: {} })).body).toEqual({ rolledBack: 'v2', current: 'v1' });
    expect((await admin(p, '/models/rollback', { method: 'POST', json: {} })).body).toEqual({ rolledBack: 'v1', current: null });
  });
});

describe('GET /v1/admin/models: the rollout history', () => {
  it('lists every promotion and rollback, newest first, with what changed, who did it and why', async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: { ...trained(model('v1')), reasons: ['nDCG@5 +0.040', 'no layer lost'] } });
    await admin(p, '/models', { method: 'POST', json: trained(model('v2'), false) });
    expect((await admin(p, '/models/v2/promote', { method: 'POST', json: { reason: 'overruled for the billing questions' } })).status).toBe(200);
    expect((await admin(p, '/models/rollback', { method: 'POST', json: { reason: 'regressed on shipping' } })).status).toBe(200);
    expect((await admin(p, '/models/rollback', { method: 'POST', json: {} })).status).toBe(200);
    // Promoted again by hand: the gate passed it once, but this promotion is an admin's.
    expect((await admin(p, '/models/v1/promote', { method: 'POST', json: {} })).status).toBe(200);

    const { status, body } = await admin<{ current: string; rollouts: { at: number }[] }>(p, '/models');
    expect(status).toBe(200);
    expect(body.current).toBe('v1');
    expect(body.rollouts.map(({ at, ...r }) => r)).toEqual([
      { action: 'promote', from: null, to: 'v1', by: 'admin', reason: 'promoted by an admin' },
      { action: 'rollback', from: 'v1', to: null, by: 'admin', reason: 'rolled back by an admin' },
      { action: 'rollback', from: 'v2', to: 'v1', by: 'admin', reason: 'regressed on shipping' },
      { action: 'promote', from: 'v1', to: 'v2', by: 'admin', reason: 'overruled for the billing questions' },
      { action: 'promote', from: null, to: 'v1', by: 'gate', reason: 'nDCG@5 +0.040; no layer lost' },
    ]);
    const times = body.rollouts.map((r) => r.at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('is empty before any model is served', async () => {
    const p = await newProject();
    await admin(p, '/models', { method: 'POST', json: trained(model('v1'), false) });
    expect((await admin(p, '/models')).body).toMatchObject({ current: null, rollouts: [] });
  });
});

/**
 * The D1, except that `between` runs once the first read of the registry's tables is answered, and
 * every other such read waits for it: a promotion or rollback landing between reads that D1 may
 * answer in either order. Reads made together in one batch see one state, so it runs after them.
 */
function changedBetweenReads(d1: D1Database, between: () => Promise<unknown>): D1Database {
  let first: Promise<void> | undefined;
  return hookedD1(d1, async ({ sql }, read) => {
    if (!sql.some((s) => /\bmodel_rollouts\b|\bfrom models\b/.test(s))) return read();
    if (first) {
      await first;
      return read();
    }
    let done = () => {};
    first = new Promise<void>((resolve) => (done = resolve));
    try {
      const result = await read();
      await between();
      return result;
    } finally {
      done();
    }
  });
}

describe('GET /v1/admin/models while what users get changes', () => {
  it.each([
    [
      'a promotion',
      'A',
      (id: string) => recordModel(env.DB, id, { ...trained(model('B')), comparedWith: 'A', trainedBy: 'retrain', findings: [], at: Date.now() }),
    ],
    ['a rollback', 'B', (id: string) => rollBack(env.DB, id, 'B regressed', Date.now())],
  ] as const)(
    "answers one state when %s lands between its reads: the current version is the model marked current and the history's last change",
    async (_, before, change) => {
      const p = await newProject();
      await admin(p, '/models', { method: 'POST', json: trained(model('A')) });
      if (before === 'B') await admin(p, '/models', { method: 'POST', json: { ...trained(model('B')), comparedWith: 'A' } });
      const res = await call('/v1/admin/models', { headers: bearer(p.keys.admin), bindings: { DB: changedBetweenReads(env.DB, () => change(p.id)) } });
      const body = (await res.json()) as ModelRegistry;
      expect(res.status).toBe(200);
      expect(body.models.filter((m) => m.current).map((m) => m.version)).toEqual(body.current === null ? [] : [body.current]);
      expect(body.rollouts[0]?.to ?? null).toBe(body.current);
      // The state before the change, read whole; the change did land, after.
      expect(body.current).toBe(before);
      expect((await admin<ModelRegistry>(p, '/models')).body.current).toBe(before === 'A' ? 'B' : 'A');
    },
  );
});

describe('GET /v1/admin/training-data', () => {
  it('names the version users get even when its artifact cannot be read, so `npm run retrain` can replace it', async () => {
    const p = await newProject();
    // Stored and served before artifacts were checked as they are now: its vector is not base64.
    const legacy = { ...model('legacy-1'), memory: { queries: [{ terms: ['refund'], vector: 'not base64!!' }], judgements: [] } };
    const at = Date.now();
    const stored = await recordModel(env.DB, p.id, { ...trained(legacy), trainedBy: 'retrain', findings: [], at });
    expect(stored.outcome).toBe('recorded');
    const { body } = await admin<{ current: unknown; currentVersion: string | null }>(p, '/training-data');
    expect(body).toMatchObject({ current: null, currentVersion: 'legacy-1' });

    // What it names is what a promotion compares with: the registry serves the model trained over it.
    const res = await admin(p, '/models', { method: 'POST', json: { ...trained(model('next-1')), comparedWith: body.currentVersion } });
    expect(res.status).toBe(201);
    expect((await admin(p, '/training-data')).body).toMatchObject({ current: { version: 'next-1' }, currentVersion: 'next-1' });
  });

  it('names no version while users get retrieval order', async () => {
    const p = await newProject();
    expect((await admin(p, '/training-data')).body).toMatchObject({ current: null, currentVersion: null });
  });
});
