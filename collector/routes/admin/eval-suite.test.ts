import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../../shared/error-body.ts';
import { MAX_SUITE_QUERIES } from '../../../shared/schema/eval-suite.ts';
import { adminCall as admin, bearer, call, newProject } from '../../test/fixtures.ts';

const question = (n = 1) => ({
  query: `Refund window for opened items ${n}?`,
  candidates: [
    { chunkId: 'refunds#1', sourceDocId: 'refunds.md', text: 'Opened items can be returned within 14 days.', score: 9.5 },
    { chunkId: 'shipping#1', sourceDocId: 'shipping.md', text: 'Shipping takes three days.' },
  ],
  judgements: [
    { sourceDocId: 'refunds.md', relevance: 1 },
    { chunkId: 'shipping#1', relevance: 0 },
  ],
});

const suite = async (p: { keys: { admin: string } }) =>
  (await admin<{ queries: { queryId: string; candidates: number; judgements: number }[] }>(p, '/eval-suite')).body.queries;

describe('the curated eval suite', () => {
  it('adds, replaces, lists and removes a question by its id', async () => {
    const p = await newProject();
    const put = await admin(p, '/eval-suite/refunds%20opened', { method: 'PUT', json: question() });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ queryId: 'refunds opened', query: 'Refund window for opened items 1?', candidates: 2, judgements: 2 });
    // Sent again, changed: replaced, not added.
    expect(
      (await admin(p, '/eval-suite/refunds%20opened', { method: 'PUT', json: { ...question(2), judgements: [{ chunkId: 'refunds#1', relevance: 1 }] } }))
        .status,
    ).toBe(200);
    expect(await suite(p)).toEqual([
      expect.objectContaining({ queryId: 'refunds opened', query: 'Refund window for opened items 2?', candidates: 2, judgements: 1 }),
    ]);
    expect((await admin(p, '/eval-suite/refunds%20opened', { method: 'DELETE' })).body).toEqual({ queryId: 'refunds opened', deleted: true });
    expect(await suite(p)).toEqual([]);
    const again = await admin(p, '/eval-suite/refunds%20opened', { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: { code: 'suite_query_not_found', field: 'queryId' } });
  });

  it('refuses bad input naming the field, and stores nothing', async () => {
    const p = await newProject();
    const q = question();
    const cases: [string, unknown, string][] = [
      ['/eval-suite/a%01b', q, 'queryId'],
      ['/eval-suite/x', { ...q, query: '   ' }, 'query'],
      ['/eval-suite/x', { ...q, candidates: [] }, 'candidates'],
      ['/eval-suite/x', { ...q, candidates: [q.candidates[0], q.candidates[0]] }, 'candidates[1]'],
      ['/eval-suite/x', { ...q, candidates: [{ ...q.candidates[0], text: 'half \ud800' }] }, 'candidates[0].text'],
      ['/eval-suite/x', { ...q, judgements: [{ chunkId: 'elsewhere#1', relevance: 1 }] }, 'judgements[0]'],
      ['/eval-suite/x', { ...q, judgements: [{ sourceDocId: 'refunds.md', relevance: 2 }] }, 'judgements[0]'],
      // Judged twice, the one read last would win unseen, whatever the other said.
      [
        '/eval-suite/x',
        {
          ...q,
          judgements: [
            { chunkId: 'shipping#1', relevance: 0 },
            { chunkId: 'shipping#1', relevance: 1 },
          ],
        },
        'judgements[1]',
      ],
      [
        '/eval-suite/x',
        {
          ...q,
          judgements: [
            { sourceDocId: 'refunds.md', relevance: 1 },
            { sourceDocId: 'refunds.md', relevance: 0 },
          ],
        },
        'judgements[1]',
      ],
      ['/eval-suite/x', { ...q, extra: 1 }, 'extra'],
      ['/eval-suite/x', [q], 'body'],
    ];
    for (const [path, json, field] of cases) {
      const res = await admin(p, path, { method: 'PUT', json });
      expect(res.status, `${path} ${field}`).toBe(400);
      expect(res.body, field).toMatchObject({ error: { field } });
    }
    const notJson = await call('/v1/admin/eval-suite/x', {
      method: 'PUT',
      headers: { ...bearer(p.keys.admin), 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    // A viewer reads the loop's figures only.
    expect((await call('/v1/admin/eval-suite', { headers: bearer(p.keys.viewer) })).status).toBe(403);
    expect((await call('/v1/admin/eval-suite/x', { method: 'PUT', headers: bearer(p.keys.viewer), body: JSON.stringify(q) })).status).toBe(403);
    expect(await suite(p)).toEqual([]);
  });

  it('says what a judgement must be, and names only the keys a judgement of a known form does not take', async () => {
    const p = await newProject();
    const q = question();
    const refused = async (judgement: unknown) =>
      (await admin<ErrorBody>(p, '/eval-suite/x', { method: 'PUT', json: { ...q, judgements: [judgement] } })).body.error;
    expect((await refused({ sourceDocId: 'refunds.md', relevance: 2 })).fields).toEqual([
      { field: 'judgements[0]', message: 'must be { chunkId, relevance } or { sourceDocId, relevance }, relevance 0 or 1' },
    ]);
    expect((await refused({ sourceDocId: 'refunds.md', relevance: 1, colour: 'red' })).fields).toEqual([
      { field: 'judgements[0].colour', message: 'is not a field this takes' },
    ]);
    expect(await suite(p)).toEqual([]);
  });

  it('names a bad id beside every field at fault in the body, so both are put right in one round, and stores nothing', async () => {
    const p = await newProject();
    const q = question();
    const fieldsOf = (body: ErrorBody) => body.error.fields!.map((f) => f.field);
    const both = await admin<ErrorBody>(p, '/eval-suite/a%01b', { method: 'PUT', json: { ...q, query: '   ', extra: 1 } });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatchObject({
      code: 'invalid_query_id',
      field: 'queryId',
      message: expect.stringMatching(/control or invisible format characters/),
    });
    expect(fieldsOf(both.body)).toEqual(['queryId', 'query', 'extra']);
    // A body that is not JSON is named beside it too; a good body leaves the id alone.
    const notJson = await call('/v1/admin/eval-suite/a%01b', {
      method: 'PUT',
      headers: { ...bearer(p.keys.admin), 'content-type': 'application/json' },
      body: '{',
    });
    expect(fieldsOf((await notJson.json()) as ErrorBody)).toEqual(['queryId', 'body']);
    // A body of another media type is its 415 first, as on every route.
    const notTyped = await call('/v1/admin/eval-suite/a%01b', {
      method: 'PUT',
      headers: { ...bearer(p.keys.admin), 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(notTyped.status).toBe(415);
    expect(fieldsOf((await admin<ErrorBody>(p, '/eval-suite/a%01b', { method: 'PUT', json: q })).body)).toEqual(['queryId']);
    expect(fieldsOf((await admin<ErrorBody>(p, '/eval-suite/a%01b', { method: 'DELETE' })).body)).toEqual(['queryId']);
    // A good id with a bad body names the body's fields alone, as before.
    expect((await admin<ErrorBody>(p, '/eval-suite/x', { method: 'PUT', json: { ...q, extra: 1 } })).body.error).toMatchObject({
      code: 'invalid_suite_query',
      fields: [{ field: 'extra' }],
    });
    expect(await suite(p)).toEqual([]);
  });

  it('names a chunk listed twice and a judgement twice or of no candidate beside the fields of the wrong type, in one round, and stores nothing', async () => {
    const p = await newProject();
    const q = question();
    const [refunds, shipping] = q.candidates;
    const refused = async (path: string, json: unknown) => (await admin<ErrorBody>(p, path, { method: 'PUT', json })).body.error;
    const body = {
      query: '   ',
      candidates: [refunds, { ...shipping, score: 'high' }, { ...refunds, text: 'Listed again.' }],
      judgements: [
        { chunkId: 'elsewhere#1', relevance: 1 },
        { chunkId: 'shipping#1', relevance: 2 },
        { sourceDocId: 'refunds.md', relevance: 1 },
        { sourceDocId: 'refunds.md', relevance: 0 },
      ],
    };
    const fields = ['query', 'candidates[1].score', 'judgements[1]', 'candidates[2]', 'judgements[0]', 'judgements[3]'];
    const error = await refused('/eval-suite/x', body);
    expect(error).toMatchObject({ code: 'invalid_suite_query', field: 'query' });
    expect(error.fields).toEqual(fields.map((field) => ({ field, message: expect.any(String) })));
    expect(error.fields![3]!.message).toBe('lists chunk refunds#1 a second time');
    expect(error.fields![4]!.message).toBe('judges a chunk or document that is not among the candidates');
    expect(error.fields![5]!.message).toBe('judges document refunds.md a second time');
    // Beside a bad id too.
    expect((await refused('/eval-suite/a%01b', body)).fields!.map((f) => f.field)).toEqual(['queryId', ...fields]);
    // A candidate whose id is wrong could be the chunk a judgement names: none is said not to be a candidate, a judgement twice still is.
    const unknownCandidate = {
      ...q,
      candidates: [refunds, { ...shipping, chunkId: ' shipping#1' }],
      judgements: [
        { chunkId: 'elsewhere#1', relevance: 1 },
        { chunkId: 'refunds#1', relevance: 1 },
        { chunkId: 'refunds#1', relevance: 0 },
      ],
    };
    expect((await refused('/eval-suite/x', unknownCandidate)).fields!.map((f) => f.field)).toEqual(['candidates[1].chunkId', 'judgements[2]']);
    expect(await suite(p)).toEqual([]);
  });

  it(`keeps at most ${MAX_SUITE_QUERIES} questions, and still replaces one of them`, async () => {
    const p = await newProject();
    const rows = Array.from({ length: MAX_SUITE_QUERIES }, (_, i) =>
      env.DB.prepare(
        `insert into eval_suite (project_id, query_id, query, query_key, candidates, judgements, updated_at) values (?, ?, 'q', 'q', '[]', '[]', 0)`,
      ).bind(p.id, `q${i}`),
    );
    await env.DB.batch(rows);
    const full = await admin(p, '/eval-suite/one-more', { method: 'PUT', json: question() });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ error: { code: 'suite_full', field: 'queryId' } });
    expect((await admin(p, '/eval-suite/q7', { method: 'PUT', json: question() })).status).toBe(200);
    expect((await suite(p)).length).toBe(MAX_SUITE_QUERIES);
  });
});
