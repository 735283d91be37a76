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
});
