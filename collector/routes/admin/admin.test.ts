import { describe, expect, it } from 'vitest';
import { bearer, call, newProject } from '../../test/fixtures.ts';

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
      expect(await res.json()).toEqual({ id: p.id, name: p.name });
    }
    expect((await call('/v1/admin/project', { headers: bearer(a.keys.server) })).status).toBe(403);
  });
});
