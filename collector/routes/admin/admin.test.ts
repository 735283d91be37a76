import { describe, expect, it } from 'vitest';
import { VIEWER_READS } from '../../auth/viewer-access.ts';
import { bearer, call, newProject, projectRows } from '../../test/fixtures.ts';
import { adminRoutes } from './index.ts';

describe('/v1/admin/*', () => {
  it('needs an admin key before anything else, even for a path that does not exist', async () => {
    const p = await newProject();
    const none = await call('/v1/admin/nothing-here');
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: { code: 'missing_key', message: expect.any(String), field: 'key' } });
    for (const kind of ['write', 'server'] as const) {
      const wrong = await call('/v1/admin/nothing-here', { headers: bearer(p.keys[kind]) });
      expect(wrong.status).toBe(403);
      expect(await wrong.json()).toMatchObject({ error: { code: 'wrong_key_kind', field: 'key' } });
    }
    const admin = await call('/v1/admin/nothing-here', { method: 'POST', headers: bearer(p.keys.admin) });
    expect(admin.status).toBe(404);
    expect(await admin.json()).toMatchObject({ error: { code: 'not_found', field: 'path' } });
  });

  it('names the project the admin key belongs to, and no other', async () => {
    const [a, b] = await Promise.all([newProject(), newProject()]);
    for (const p of [a, b]) {
      const res = await call('/v1/admin/project', { headers: bearer(p.keys.admin) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: p.id, name: p.name, access: 'admin', configProblems: [] });
    }
    expect((await call('/v1/admin/project', { headers: bearer(a.keys.server) })).status).toBe(403);
    expect(await (await call('/v1/admin/project', { headers: bearer(a.keys.viewer) })).json()).toEqual({
      id: a.id,
      name: a.name,
      access: 'viewer',
      configProblems: [],
    });
  });

  it('lets a viewer key read the figures alone: every other admin route, and every write, is refused and changes nothing', async () => {
    const p = await newProject();
    const routes = adminRoutes.routes.filter((r) => r.method !== 'ALL');
    expect(routes.length).toBeGreaterThan(20);
    const seen = new Set<string>();
    const before = await projectRows(p.id);
    for (const { method, path } of routes) {
      const url = `/v1/admin${path.replace(/:\w+/g, 'x')}`;
      const name = `${method} ${url}`;
      seen.add(name);
      const res = await call(url, { method, headers: bearer(p.keys.viewer), ...(method === 'GET' ? {} : { json: {} }) });
      if (VIEWER_READS.has(name)) expect([name, res.status]).toEqual([name, 200]);
      else {
        expect([name, res.status]).toEqual([name, 403]);
        expect(await res.json()).toMatchObject({ error: { code: 'admin_only', field: 'key' } });
      }
    }
    expect(await projectRows(p.id)).toEqual(before);
    // Every read it is given exists (a renamed route would otherwise leave viewers a 404).
    for (const read of VIEWER_READS) expect(seen).toContain(read);
    // What a viewer reads is what an admin reads.
    for (const read of ['/v1/admin/health', '/v1/admin/models']) {
      const [asViewer, asAdmin] = await Promise.all([p.keys.viewer, p.keys.admin].map((k) => call(read, { headers: bearer(k) }).then((r) => r.json())));
      expect(asViewer).toEqual(asAdmin);
    }
    // The older paths the admin key reads and writes stay the admin's.
    expect((await call('/v1/traces/x', { headers: bearer(p.keys.viewer) })).status).toBe(403);
    expect((await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.viewer), json: { rating: true } })).status).toBe(403);
  });
});
