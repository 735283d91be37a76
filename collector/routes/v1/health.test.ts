import { describe, expect, it } from 'vitest';
import { VERSION } from '../../../shared/version.ts';
import { call } from '../../test/fixtures.ts';

describe('GET /v1/health', () => {
  it('answers ok and the version once the database answers', async () => {
    const res = await call('/v1/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', version: VERSION });
  });
});
