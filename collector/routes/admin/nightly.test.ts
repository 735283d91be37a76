import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../../shared/schema/trace.ts';
import { bearer, call, newProject, trace } from '../../test/fixtures.ts';

describe('POST /v1/admin/nightly', () => {
  it('runs the night of ?at= when given (a missed night, or a simulated week), else tonight', async () => {
    const p = await newProject();
    const at = Date.UTC(2031, 0, 15, 3);
    const res = await call(`/v1/admin/nightly?at=${at}&simulate=true`, { method: 'POST', headers: bearer(p.keys.admin) });
    expect(await res.json()).toMatchObject({ night: '2031-01-15', done: true });
    const tonight = await call('/v1/admin/nightly', { method: 'POST', headers: bearer(p.keys.admin) });
    expect(((await tonight.json()) as { night: string }).night).toBe(new Date().toISOString().slice(0, 10));
    const runs = (await (await call('/v1/admin/runs', { headers: bearer(p.keys.admin) })).json()) as { runs: { night: string }[] };
    expect(runs.runs.map((r) => r.night)).toContain('2031-01-15');
  });

  it('simulated weeks ahead of the clock each take what arrived since the previous one', async () => {
    const p = await newProject();
    const week = 7 * 86_400_000;
    const at = Date.UTC(2032, 2, 7, 23);
    const night = async (t: number) => {
      const res = await call(`/v1/admin/nightly?at=${t}&simulate=true`, { method: 'POST', headers: bearer(p.keys.admin) });
      const body = (await res.json()) as { runs: { stages: { name: string; counts: Record<string, number> }[] }[] };
      return body.runs[0]!.stages.find((s) => s.name === 'prepare')!.counts.touchedByTraces;
    };
    const post = (t: TraceInput) => call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
    expect((await post(trace({ createdAt: at - 3_600_000 }))).status).toBe(200);
    expect(await night(at)).toBe(1);
    expect((await post(trace({ createdAt: at + week - 3_600_000 }))).status).toBe(200);
    expect(await night(at + week)).toBe(1);
    expect(await night(at + 2 * week)).toBe(0);
  });

  it('refuses a night more than a day ahead of the clock unless it is a simulation, and purges nothing', async () => {
    const p = await newProject();
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: trace() })).status).toBe(200);
    const ahead = Date.now() + 200 * 86_400_000;
    const res = await call(`/v1/admin/nightly?at=${ahead}`, { method: 'POST', headers: bearer(p.keys.admin) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_query', field: 'query.at', message: expect.stringContaining('simulate=true') } });
    const runs = (await (await call('/v1/admin/runs', { headers: bearer(p.keys.admin) })).json()) as { runs: unknown[] };
    expect(runs.runs).toEqual([]);
    // Within a day ahead, a clock a little fast: it runs.
    expect((await call(`/v1/admin/nightly?at=${Date.now() + 3_600_000}`, { method: 'POST', headers: bearer(p.keys.admin) })).status).toBe(200);
  });

  it('refuses a parameter given twice, whichever comes first, and runs nothing', async () => {
    const p = await newProject();
    for (const query of ['at=1577836800000&at=abc', 'at=abc&at=1577836800000', 'at=1577836800000&at=1577836800000']) {
      const res = await call(`/v1/admin/nightly?${query}&simulate=true`, { method: 'POST', headers: bearer(p.keys.admin) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_query', field: 'query.at', message: 'is given more than once' } });
    }
    const runs = (await (await call('/v1/admin/runs', { headers: bearer(p.keys.admin) })).json()) as { runs: unknown[] };
    expect(runs.runs).toEqual([]);
  });

  it('refuses an `at` that is not epoch milliseconds, naming it', async () => {
    const p = await newProject();
    for (const at of ['yesterday', '0000000000000', '1700000000']) {
      const res = await call(`/v1/admin/nightly?at=${at}`, { method: 'POST', headers: bearer(p.keys.admin) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_query', field: 'query.at', message: 'must be epoch milliseconds from 2020 to 2100' } });
    }
    const runs = (await (await call('/v1/admin/runs', { headers: bearer(p.keys.admin) })).json()) as { runs: unknown[] };
    expect(runs.runs).toEqual([]);
  });
});
