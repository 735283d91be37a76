import { describe, expect, it } from 'vitest';
import { call } from '../../test/fixtures.ts';

describe('GET /v1/health', () => {
  it('answers ok once the database answers', async () => {
    const res = await call('/v1/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });

  it('answers unknown paths with the error shape', async () => {
    const res = await call('/v1/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String), field: 'path' } });
  });
});
