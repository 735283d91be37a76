import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { VERSION } from '../../../shared/version.ts';
import { app } from '../../app.ts';
import { countedD1 } from '../../storage/sql/counted-d1.ts';
import { call } from '../../test/fixtures.ts';
import { PROBE_FRESH_MS } from './health.ts';

describe('GET /v1/health', () => {
  it('answers ok and the version once the database answers', async () => {
    const res = await call('/v1/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', version: VERSION });
  });

  it('asks the database at most once in a few seconds, since the probe is not rate limited: a flood of it is no flood of D1', async () => {
    const { db, queries } = countedD1(env.DB);
    for (let i = 0; i < 5; i++) expect((await app.request('/v1/health', {}, { ...env, DB: db })).status).toBe(200);
    expect(queries()).toBeLessThanOrEqual(1);
  });

  it('answers an error while the database does not answer, whatever it answered before', async () => {
    await call('/v1/health');
    const down = { ...env, DB: { prepare: () => ({ first: () => Promise.reject(new Error('D1 is down')) }) } };
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + PROBE_FRESH_MS);
    try {
      expect((await app.request('/v1/health', {}, down)).status).toBe(500);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
