import { env } from 'cloudflare:workers';
import { HonoRequest } from 'hono/request';
import { describe, expect, it, vi } from 'vitest';
import { bearer, call, newProject, trace } from '../../test/fixtures.ts';

describe('the admin API on a route that takes no query parameters', () => {
  it('refuses one, naming it, rather than doing what the route does without it', async () => {
    const p = await newProject();
    const t = trace({ userIdHash: 'u-dry-run' });
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t })).status).toBe(200);
    // Ignored, a dry run would erase the user for real.
    const erase = await call('/v1/admin/users/u-dry-run?dryRun=true', { method: 'DELETE', headers: bearer(p.keys.admin) });
    expect(erase.status).toBe(400);
    expect(await erase.json()).toEqual({
      error: {
        code: 'invalid_query',
        message: 'is not a parameter this takes',
        field: 'query.dryRun',
        fields: [{ field: 'query.dryRun', message: 'is not a parameter this takes' }],
      },
    });
    const stored = await env.DB.prepare('select count(*) as n from traces where project_id = ? and trace_id = ?').bind(p.id, t.traceId).first<number>('n');
    expect(stored).toBe(1);
    // A list that takes no limit answers in full: a limit asked for is refused, not ignored.
    const models = await call('/v1/admin/models?limit=5', { headers: bearer(p.keys.viewer) });
    expect(await models.json()).toMatchObject({ error: { code: 'invalid_query', field: 'query.limit' } });
    const proto = await call('/v1/admin/project?__proto__=x', { headers: bearer(p.keys.admin) });
    expect(await proto.json()).toMatchObject({ error: { code: 'invalid_query', field: 'query.__proto__' } });
  });

  it('still takes an empty parameter, as a form sends one, and answers a path it does not have 404', async () => {
    const p = await newProject();
    expect((await call('/v1/admin/project?filter=', { headers: bearer(p.keys.admin) })).status).toBe(200);
    const nowhere = await call('/v1/admin/nowhere?x=1', { headers: bearer(p.keys.admin) });
    expect(nowhere.status).toBe(404);
  });

  it('leaves the parameters of a route that takes some to its own schema', async () => {
    const p = await newProject();
    expect((await call('/v1/admin/runs?limit=5', { headers: bearer(p.keys.admin) })).status).toBe(200);
    const misspelt = await call('/v1/admin/runs?limt=5', { headers: bearer(p.keys.admin) });
    expect(await misspelt.json()).toMatchObject({ error: { code: 'invalid_query', field: 'query.limt' } });
  });

  it('reads the query string once for a request, its route checking what the sub-app let through', async () => {
    const p = await newProject();
    const queries = vi.spyOn(HonoRequest.prototype, 'queries');
    try {
      const res = await call('/v1/admin/runs?limit=5&limit=', { headers: bearer(p.keys.admin) });
      expect(res.status).toBe(200);
      expect(queries).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
    }
  });
});

describe('an admin query string with several bad parameters', () => {
  const fieldsOf = async (res: Response) => {
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; field: string; fields: { field: string; message: string }[] } };
    expect(error.code).toBe('invalid_query');
    // The first of them stays `field`, as clients reading one field have always read it.
    expect(error.field).toBe(error.fields[0]?.field);
    return error.fields.map((f) => f.field);
  };

  it('names every one of them, each with its own message, in the order the schema states them', async () => {
    const p = await newProject();
    const res = await call('/v1/admin/review?status=bogus&limit=abc&offset=-1&colour=red', { headers: bearer(p.keys.admin) });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { fields: { field: string; message: string }[] } };
    expect(error.fields).toEqual([
      { field: 'query.status', message: expect.stringContaining('Invalid type') },
      { field: 'query.limit', message: 'must be a whole number' },
      { field: 'query.offset', message: expect.stringContaining('Invalid value') },
      { field: 'query.colour', message: 'is not a field this takes' },
    ]);
  });

  it('names every parameter it does not take, not the first alone', async () => {
    const p = await newProject();
    expect(await fieldsOf(await call('/v1/admin/review?colour=red&limit=abc&size=big', { headers: bearer(p.keys.admin) }))).toEqual([
      'query.limit',
      'query.colour',
      'query.size',
    ]);
  });

  it('names a parameter given twice beside those the schema refuses', async () => {
    const p = await newProject();
    expect(await fieldsOf(await call('/v1/admin/worst-traces?days=7&days=8&below=2&limt=5', { headers: bearer(p.keys.admin) }))).toEqual([
      'query.days',
      'query.below',
      'query.limt',
    ]);
  });

  it('names every parameter given to a route that takes none', async () => {
    const p = await newProject();
    expect(await fieldsOf(await call('/v1/admin/models?limit=5&offset=10', { headers: bearer(p.keys.viewer) }))).toEqual(['query.limit', 'query.offset']);
  });
});
