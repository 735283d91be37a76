import { describe, expect, it } from 'vitest';
import { defaultWidgetConfig } from '../../../shared/schema/config.ts';
import { bearer, call, newProject, ORIGIN } from '../../test/fixtures.ts';

describe('GET /v1/admin/config', () => {
  it('answers the defaults until a config is set, then what GET /v1/config serves widgets', async () => {
    const p = await newProject();
    const read = async () => (await call('/v1/admin/config', { headers: bearer(p.keys.admin) })).json();
    expect(await read()).toEqual(defaultWidgetConfig());
    const config = { rating: true, prompts: [{ id: 'stuck', trigger: 'rephrase', text: { en: 'Stuck?', 'zh-CN': '遇到困难了吗？' } }] };
    expect((await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: config })).status).toBe(200);
    const served = await (await call('/v1/config', { headers: { ...bearer(p.keys.write), origin: ORIGIN } })).json();
    expect(await read()).toEqual(served);
    expect(served).toMatchObject({ rating: true, prompts: [{ id: 'stuck', maxPerSession: 1 }] });
  });

  it('is for admin keys only', async () => {
    const p = await newProject();
    expect((await call('/v1/admin/config', { headers: bearer(p.keys.write) })).status).toBe(403);
  });

  it('gives its version as the ETag, and PUT /v1/config with that If-Match refuses a save from before another admin’s, changing nothing', async () => {
    const p = await newProject();
    const read = () => call('/v1/admin/config', { headers: bearer(p.keys.admin) });
    const put = (json: unknown, ifMatch: string) => call('/v1/config', { method: 'PUT', headers: { ...bearer(p.keys.admin), 'if-match': ifMatch }, json });
    const etag = (await read()).headers.get('etag')!;
    const mine = await put({ rating: true }, etag);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('etag')).toBe((await read()).headers.get('etag'));
    const theirs = await put({ rating: false, prompts: [] }, etag);
    expect(theirs.status).toBe(412);
    expect(await theirs.json()).toMatchObject({ error: { code: 'changed_since_read' } });
    expect(await (await read()).json()).toMatchObject({ rating: true });
    expect((await put({ rating: false }, mine.headers.get('etag')!)).status).toBe(200);
    expect(await (await read()).json()).toMatchObject({ rating: false });
  });
});
