import { describe, expect, it } from 'vitest';
import { bearer, call, newProject } from '../../test/fixtures.ts';

describe('POST /v1/admin/nightly', () => {
  it('runs the night of ?at= when given (a missed night, or a simulated week), else tonight', async () => {
    const p = await newProject();
    const at = Date.UTC(2031, 0, 15, 3);
    const res = await call(`/v1/admin/nightly?at=${at}`, { method: 'POST', headers: bearer(p.keys.admin) });
    expect(await res.json()).toMatchObject({ night: '2031-01-15', done: true });
    const tonight = await call('/v1/admin/nightly', { method: 'POST', headers: bearer(p.keys.admin) });
    expect(((await tonight.json()) as { night: string }).night).toBe(new Date().toISOString().slice(0, 10));
    const runs = (await (await call('/v1/admin/runs', { headers: bearer(p.keys.admin) })).json()) as { runs: { night: string }[] };
    expect(runs.runs.map((r) => r.night)).toContain('2031-01-15');
  });

  it('refuses an `at` that is not epoch milliseconds, naming it', async () => {
    const p = await newProject();
    const res = await call('/v1/admin/nightly?at=yesterday', { method: 'POST', headers: bearer(p.keys.admin) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_query', field: 'query.at', message: 'must be epoch milliseconds' } });
  });
});
