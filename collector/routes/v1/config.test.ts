import { describe, expect, it } from 'vitest';
import { bearer, call, newProject, ORIGIN } from '../../test/fixtures.ts';

describe('GET and PUT /v1/config', () => {
  it('serves defaults until an admin sets a config, then serves that', async () => {
    const p = await newProject();
    const before = (await (await call('/v1/config', { headers: { ...bearer(p.keys.write), origin: ORIGIN } })).json()) as any;
    expect(before).toMatchObject({ prompts: [], rating: false, thresholds: { rephraseWindowMs: 120_000, focusedDwellMs: 15_000 } });

    const config = {
      rating: true,
      prompts: [{ id: 'trouble', trigger: 'rephrase', text: { en: 'Having trouble finding an answer?', 'zh-CN': '是否遇到了困难？' }, maxPerDay: 2 }],
    };
    const put = await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: config });
    expect(put.status).toBe(200);
    const after = (await (await call('/v1/config', { headers: bearer(p.keys.write) })).json()) as any;
    expect(after.rating).toBe(true);
    expect(after.prompts[0]).toMatchObject({ id: 'trouble', trigger: 'rephrase', maxPerDay: 2, maxPerSession: 1, choices: [{ id: 'yes' }, { id: 'no' }] });
  });

  it("is cached by the browser per key, so one project's widget is never given another's config from the cache", async () => {
    const p = await newProject();
    const res = await call('/v1/config', { headers: { ...bearer(p.keys.write), origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
    const vary = res.headers
      .get('vary')!
      .toLowerCase()
      .split(/\s*,\s*/);
    expect(vary).toEqual(expect.arrayContaining(['authorization', 'x-api-key', 'origin']));
  });

  it('rejects a bad config naming the field, and keeps the old one', async () => {
    const p = await newProject();
    await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: { rating: true } });
    const res = await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: { prompts: [{ id: 'x', trigger: 'sneeze', text: 'hi' }] } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_config', field: 'prompts[0].trigger' } });
    const kept = (await (await call('/v1/config', { headers: bearer(p.keys.write) })).json()) as any;
    expect(kept.rating).toBe(true);
  });

  it.each([
    [{ rating: true, ratting: false }, 'ratting'],
    [{ thresholds: { bounce_window_ms: 5_000 } }, 'thresholds.bounce_window_ms'],
    [{ prompts: [{ id: 'p', trigger: 'rephrase', text: 'Stuck?', maxPerWeek: 3 }] }, 'prompts[0].maxPerWeek'],
    [{ prompts: [{ id: 'p', trigger: 'rephrase', text: 'Stuck?', choices: [{ id: 'yes', label: 'Yes', value: 1 }] }] }, 'prompts[0].choices[0].value'],
  ])('refuses an unknown key in %j, naming %s, and keeps the config as it was', async (config, field) => {
    const p = await newProject();
    await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: { rating: true, thresholds: { bounceWindowMs: 4_000 } } });
    const before = await (await call('/v1/config', { headers: bearer(p.keys.write) })).json();

    const res = await call('/v1/config', { method: 'PUT', headers: bearer(p.keys.admin), json: config });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_config', field } });
    expect(await (await call('/v1/config', { headers: bearer(p.keys.write) })).json()).toEqual(before);
  });
});
