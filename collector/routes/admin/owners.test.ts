import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { adminCall as admin, bearer, call, newProject } from '../../test/fixtures.ts';

type Project = Awaited<ReturnType<typeof newProject>>;
const rules = (...owners: [string, string][]) => ({ owners: owners.map(([pattern, owner]) => ({ pattern, owner })) });
const read = (p: Project) => call('/v1/admin/owners', { headers: bearer(p.keys.admin) });
const put = (p: Project, json: unknown, ifMatch?: string) =>
  call('/v1/admin/owners', { method: 'PUT', json, headers: { ...bearer(p.keys.admin), ...(ifMatch && { 'if-match': ifMatch }) } });

describe('GET and PUT /v1/admin/owners', () => {
  it('refuses a save made from a read older than what another admin saved since, changing nothing', async () => {
    const p = await newProject();
    // Two admins open the documents page: both read no rules, at the same version.
    const etag = (await read(p)).headers.get('etag')!;
    expect(etag).toMatch(/^"\d+"$/);

    const first = await put(p, rules(['refunds*', 'payments'], ['*', 'support']), etag);
    expect(first.status).toBe(200);
    const saved = first.headers.get('etag')!;
    expect(saved).not.toBe(etag);
    expect((await read(p)).headers.get('etag')).toBe(saved);

    // The second still holds the version read before the first saved: refused, the first's rules kept in order.
    const second = await put(p, rules(['policies/*', 'legal']), etag);
    expect(second.status).toBe(412);
    expect(await second.json()).toEqual({ error: { code: 'changed_since_read', message: expect.any(String) } });
    expect((await admin(p, '/owners')).body).toEqual(rules(['refunds*', 'payments'], ['*', 'support']));

    // Read again, it saves (an empty list too); each save moves the version on.
    const again = await put(p, rules(), saved);
    expect(again.status).toBe(200);
    expect((await admin(p, '/owners')).body).toEqual(rules());
    expect((await put(p, rules(['a', 'b']), saved)).status).toBe(412);
    expect((await admin(p, '/owners')).body).toEqual(rules());
    const third = await put(p, rules(['a', 'b']), again.headers.get('etag')!);
    expect(third.status).toBe(200);
    expect(third.headers.get('etag')).not.toBe(again.headers.get('etag'));

    // Without If-Match (a script), a save is unconditional, as before, and moves the version on too.
    expect((await put(p, rules(['c', 'd']))).status).toBe(200);
    expect((await admin(p, '/owners')).body).toEqual(rules(['c', 'd']));
    expect((await put(p, rules(['e', 'f']), third.headers.get('etag')!)).status).toBe(412);
    expect((await admin(p, '/owners')).body).toEqual(rules(['c', 'd']));
  });

  it('refuses a save made from no rules once another admin saved the first ones', async () => {
    const p = await newProject();
    expect((await put(p, rules(['a', 'b']), '"0"')).status).toBe(200);
    expect((await put(p, rules(['c', 'd']), '"0"')).status).toBe(412);
    expect((await admin(p, '/owners')).body).toEqual(rules(['a', 'b']));
  });

  it('gives rules stored before they had a version the version of none, which a save from them matches', async () => {
    const p = await newProject();
    await env.DB.prepare("insert into document_owners (project_id, position, pattern, owner) values (?, 0, 'a', 'b')").bind(p.id).run();
    const res = await read(p);
    expect(res.headers.get('etag')).toBe('"0"');
    expect(await res.json()).toEqual(rules(['a', 'b']));
    expect((await put(p, rules(['c', 'd']), '"0"')).status).toBe(200);
    expect((await put(p, rules(['e', 'f']), '"0"')).status).toBe(412);
    expect((await admin(p, '/owners')).body).toEqual(rules(['c', 'd']));
  });

  it('keeps each project’s version to itself', async () => {
    const [p, q] = [await newProject(), await newProject()];
    const etag = (await read(q)).headers.get('etag')!;
    expect((await put(p, rules(['a', 'b']))).status).toBe(200);
    expect((await put(q, rules(['c', 'd']), etag)).status).toBe(200);
    expect((await admin(p, '/owners')).body).toEqual(rules(['a', 'b']));
    expect((await admin(q, '/owners')).body).toEqual(rules(['c', 'd']));
  });

  it('refuses an If-Match that is not an ETag it gave, naming the header, and saves nothing', async () => {
    const p = await newProject();
    const res = await put(p, rules(['a', 'b']), 'W/"abc"');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_if_match', field: 'if-match' } });
    expect((await admin(p, '/owners')).body).toEqual(rules());
  });
});
