import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../shared/error-body.ts';
import { adminCall as admin, bearer, call, newProject } from '../test/fixtures.ts';

const question = {
  query: 'Refund window for opened items?',
  candidates: [{ chunkId: 'refunds#1', sourceDocId: 'refunds.md', text: 'Opened items: 14 days.' }],
  judgements: [{ chunkId: 'refunds#1', relevance: 1 }],
};

describe('a URL that is not percent-encoded UTF-8', () => {
  it('is a 400 naming the path, and changes nothing: the id it meant cannot be read from it', async () => {
    const p = await newProject();
    // "café" cut short of its last byte: stored, the question would be named "caf%C3".
    const res = await call('/v1/admin/eval-suite/caf%C3', { method: 'PUT', headers: bearer(p.keys.admin), json: question });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'invalid_url', message: expect.any(String), field: 'path', fields: [{ field: 'path', message: expect.any(String) }] },
    });
    expect((await admin<{ queries: unknown[] }>(p, '/eval-suite')).body.queries).toEqual([]);
    // Half of a surrogate pair, percent-encoded as UTF-8 would encode it, is not UTF-8 either.
    const erase = await call('/v1/admin/users/u%ED%A0%80', { method: 'DELETE', headers: bearer(p.keys.admin) });
    expect(await erase.json()).toMatchObject({ error: { code: 'invalid_url', field: 'path' } });
  });

  it('is a 400 naming the query parameter, rather than a filter matching nothing', async () => {
    const p = await newProject();
    const res = await call('/v1/admin/worst-traces?days=7&model=gpt=4%FF', { headers: bearer(p.keys.admin) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_url', field: 'query.model' } });
  });

  it('is a 400 naming the path and every such parameter in fields, each once, so all are put right in one round', async () => {
    const p = await newProject();
    const res = await call('/v1/admin/eval-suite/caf%C3?model=gpt%FF&days=7&q%C3=1&model=o%FF', {
      method: 'PUT',
      headers: bearer(p.keys.admin),
      json: question,
    });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as ErrorBody;
    expect(error).toMatchObject({ code: 'invalid_url', field: 'path' });
    expect(error.fields!.map((f) => f.field)).toEqual(['path', 'query.model', 'query.q%C3']);
  });

  it('takes what is well encoded, a literal % sign included', async () => {
    const p = await newProject();
    const put = await call('/v1/admin/eval-suite/caf%C3%A9%2520', { method: 'PUT', headers: bearer(p.keys.admin), json: question });
    expect(await put.json()).toMatchObject({ queryId: 'café%20' });
    expect((await call('/v1/admin/worst-traces?model=gpt%E2%80%914o+mini', { headers: bearer(p.keys.admin) })).status).toBe(200);
  });
});
