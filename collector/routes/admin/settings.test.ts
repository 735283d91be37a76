import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../../shared/schema/settings.ts';
import { adminCall as admin, newProject } from '../../test/fixtures.ts';

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
});
