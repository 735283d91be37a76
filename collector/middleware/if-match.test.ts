import { describe, expect, it } from 'vitest';
import { bearer, call, newProject } from '../test/fixtures.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

/** Each save that takes If-Match: where its ETag is read, where it is saved, a body it takes and one at fault. */
const saves = [
  {
    name: 'settings',
    read: '/v1/admin/settings',
    save: '/v1/admin/settings',
    good: { retentionDays: 30 },
    bad: { retentionDays: 'x' },
    field: 'retentionDays',
  },
  { name: 'widget config', read: '/v1/admin/config', save: '/v1/config', good: { rating: true }, bad: { rating: 'yes' }, field: 'rating' },
  {
    name: 'owner rules',
    read: '/v1/admin/owners',
    save: '/v1/admin/owners',
    good: { owners: [{ pattern: 'a*', owner: 'b' }] },
    bad: { owners: 'x' },
    field: 'owners',
  },
];

describe.each(saves)('If-Match on saving the $name', ({ read, save, good, bad, field }) => {
  const etagOf = async (p: Project) => (await call(read, { headers: bearer(p.keys.admin) })).headers.get('etag')!;
  const put = (p: Project, json: unknown, ifMatch: string) => call(save, { method: 'PUT', json, headers: { ...bearer(p.keys.admin), 'if-match': ifMatch } });

  it('takes the ETag as Cloudflare may weaken it on its way to the browser (W/"…"), stale or not', async () => {
    const p = await newProject();
    const before = await etagOf(p);
    const saved = await put(p, good, `W/${before}`);
    expect(saved.status).toBe(200);
    expect(await etagOf(p)).toBe(saved.headers.get('etag'));
    // The weak form of a version saved over is as stale as the strong one: nothing changes.
    const stale = await put(p, good, `W/${before}`);
    expect(stale.status).toBe(412);
    expect(await etagOf(p)).toBe(saved.headers.get('etag'));
  });

  it('names a bad If-Match and every field at fault in the body in one 400, saving nothing', async () => {
    const p = await newProject();
    const before = await etagOf(p);
    const res = await put(p, bad, '"abc"');
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; field: string; fields: { field: string }[] } };
    expect(error).toMatchObject({ code: 'invalid_if_match', field: 'if-match' });
    expect(error.fields.map((f) => f.field)).toEqual(['if-match', field]);
    expect(await etagOf(p)).toBe(before);
  });
});
