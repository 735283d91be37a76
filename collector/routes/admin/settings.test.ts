import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../../shared/schema/settings.ts';
import { adminCall as admin, bearer, call, newProject } from '../../test/fixtures.ts';

describe('GET and PUT /v1/admin/settings', () => {
  it('refuses an unknown key, naming it, and keeps the settings as they were', async () => {
    const p = await newProject();
    expect(await admin(p, '/settings', { method: 'PUT', json: { retentionDays: 30 } })).toMatchObject({ status: 200, body: { retentionDays: 30 } });

    const res = await admin(p, '/settings', { method: 'PUT', json: { retention_days: 60 } });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_settings', field: 'retention_days' } } });
    expect((await admin(p, '/settings')).body).toEqual({ ...DEFAULT_LOOP_SETTINGS, retentionDays: 30 });
  });

  it('refuses a good-answer score below the bad-answer score, naming goodTraceScore', async () => {
    const p = await newProject();
    const below = await admin(p, '/settings', { method: 'PUT', json: { badTraceScore: 0.4 } });
    expect(below).toMatchObject({ status: 400, body: { error: { code: 'invalid_settings', field: 'goodTraceScore' } } });
    expect((await admin(p, '/settings')).body).toEqual(DEFAULT_LOOP_SETTINGS);

    const same = await admin(p, '/settings', { method: 'PUT', json: { badTraceScore: 0.1, goodTraceScore: 0.1 } });
    expect(same).toMatchObject({ status: 200, body: { badTraceScore: 0.1, goodTraceScore: 0.1 } });
  });

  it('refuses aggregates kept for less time than the raw rows they are counted from, naming aggregateRetentionDays', async () => {
    const p = await newProject();
    const res = await admin(p, '/settings', { method: 'PUT', json: { retentionDays: 365, aggregateRetentionDays: 30 } });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_settings', field: 'aggregateRetentionDays' } } });
    expect((await admin(p, '/settings')).body).toEqual(DEFAULT_LOOP_SETTINGS);
  });

  it('refuses retraining every fraction of a day, naming retrainEveryDays: the job retrains at most once a night', async () => {
    const p = await newProject();
    for (const retrainEveryDays of [0.5, 2.5]) {
      const res = await admin(p, '/settings', { method: 'PUT', json: { retrainEveryDays } });
      expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_settings', field: 'retrainEveryDays' } } });
    }
    expect((await admin(p, '/settings')).body).toEqual(DEFAULT_LOOP_SETTINGS);
    expect(await admin(p, '/settings', { method: 'PUT', json: { retrainEveryDays: 1 } })).toMatchObject({ status: 200, body: { retrainEveryDays: 1 } });
  });

  it('refuses no share of a batch from one source, naming trainingMaxShareOneOrigin: it would refuse every training', async () => {
    const p = await newProject();
    const res = await admin(p, '/settings', { method: 'PUT', json: { trainingMaxShareOneOrigin: 0 } });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_settings', field: 'trainingMaxShareOneOrigin' } } });
    expect((await admin(p, '/settings')).body).toEqual(DEFAULT_LOOP_SETTINGS);
    expect(await admin(p, '/settings', { method: 'PUT', json: { trainingMaxShareOneOrigin: 1 } })).toMatchObject({
      status: 200,
      body: { trainingMaxShareOneOrigin: 1 },
    });
  });

  it('refuses an array for a body, which would reset every setting', async () => {
    const p = await newProject();
    await admin(p, '/settings', { method: 'PUT', json: { retentionDays: 30 } });
    const res = await admin(p, '/settings', { method: 'PUT', json: [] });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'invalid_settings', field: 'body' } } });
    expect((await admin(p, '/settings')).body).toEqual({ ...DEFAULT_LOOP_SETTINGS, retentionDays: 30 });
  });

  it('keeps reading settings stored before these rules', async () => {
    const p = await newProject();
    const stored = { ...DEFAULT_LOOP_SETTINGS, retentionDays: 45, badTraceScore: 0.5, goodTraceScore: 0.2 };
    await env.DB.prepare('insert into loop_settings (project_id, settings, updated_at) values (?, ?, ?)')
      .bind(p.id, JSON.stringify({ ...stored, retiredSetting: 1 }), Date.now())
      .run();
    expect((await admin(p, '/settings')).body).toEqual(stored);
  });

  it('refuses a save made from a read older than what another admin saved since, changing nothing', async () => {
    const p = await newProject();
    const put = (json: unknown, ifMatch?: string) =>
      call('/v1/admin/settings', { method: 'PUT', json, headers: { ...bearer(p.keys.admin), ...(ifMatch && { 'if-match': ifMatch }) } });
    // Two admins open the settings: both read the defaults' version.
    const read = await call('/v1/admin/settings', { headers: bearer(p.keys.admin) });
    const etag = read.headers.get('etag')!;
    expect(etag).toMatch(/^"\d+"$/);

    const first = await put({ retentionDays: 30 }, etag);
    expect(first.status).toBe(200);
    const saved = first.headers.get('etag')!;
    expect(saved).not.toBe(etag);
    // The second still holds the version read before the first saved.
    const second = await put({ reviewMinutesPerWeek: 60 }, etag);
    expect(second.status).toBe(412);
    expect(await second.json()).toEqual({ error: { code: 'changed_since_read', message: expect.any(String) } });
    expect((await admin(p, '/settings')).body).toEqual({ ...DEFAULT_LOOP_SETTINGS, retentionDays: 30 });

    // Read again, it saves; two saves in a row each move the version on.
    const again = await put({ retentionDays: 30, reviewMinutesPerWeek: 60 }, saved);
    expect(again.status).toBe(200);
    expect((await put({ retentionDays: 30 }, saved)).status).toBe(412);
    expect((await put({ retentionDays: 31 }, again.headers.get('etag')!)).status).toBe(200);
    // Without If-Match (a script), a save is unconditional, as before.
    expect((await put({ retentionDays: 32 })).status).toBe(200);
    expect((await admin(p, '/settings')).body).toEqual({ ...DEFAULT_LOOP_SETTINGS, retentionDays: 32 });
    expect((await call('/v1/admin/settings', { headers: bearer(p.keys.admin) })).headers.get('etag')).not.toBe(again.headers.get('etag'));
  });

  it('refuses an If-Match that is not an ETag it gave, naming the header in field and fields', async () => {
    const p = await newProject();
    const res = await call('/v1/admin/settings', { method: 'PUT', json: { retentionDays: 30 }, headers: { ...bearer(p.keys.admin), 'if-match': 'W/"abc"' } });
    expect(res.status).toBe(400);
    const message = 'must be the ETag a read answered, e.g. "1764900000000"';
    expect(await res.json()).toEqual({ error: { code: 'invalid_if_match', message, field: 'if-match', fields: [{ field: 'if-match', message }] } });
    expect((await admin(p, '/settings')).body).toEqual(DEFAULT_LOOP_SETTINGS);
  });

  it('refuses a save made from the defaults once another admin saved the first settings', async () => {
    const p = await newProject();
    const put = (json: unknown) => call('/v1/admin/settings', { method: 'PUT', json, headers: { ...bearer(p.keys.admin), 'if-match': '"0"' } });
    expect((await put({ retentionDays: 30 })).status).toBe(200);
    expect((await put({ retentionDays: 40 })).status).toBe(412);
    expect((await admin(p, '/settings')).body).toEqual({ ...DEFAULT_LOOP_SETTINGS, retentionDays: 30 });
  });
});
