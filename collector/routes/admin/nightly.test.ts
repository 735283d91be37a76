import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../../shared/schema/trace.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { runNightly } from '../../jobs/nightly.ts';
import { arrivedAt, bearer, call, event, newProject, ORIGIN, trace } from '../../test/fixtures.ts';

describe('POST /v1/admin/nightly', () => {
  it('runs the night of ?at= when given (a missed night, or a simulated week), else tonight', async () => {
    const p = await newProject();
    const at = Date.UTC(2031, 0, 15, 3);
    const res = await call(`/v1/admin/nightly?at=${at}&simulate=true`, { method: 'POST', headers: bearer(p.keys.admin) });
    expect(await res.json()).toMatchObject({ night: '2031-01-15', done: true });
    // Tonight by the clock when asked: the day before or after the request, should it cross midnight.
    const asked = utcDay(Date.now());
    const tonight = await call('/v1/admin/nightly', { method: 'POST', headers: bearer(p.keys.admin) });
    expect([asked, utcDay(Date.now())]).toContain(((await tonight.json()) as { night: string }).night);
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

  it('purges by the real clock when the night asked for is ahead of it, a simulation too', async () => {
    const p = await newProject();
    const nightly = async (query: string) => {
      const res = await call(`/v1/admin/nightly${query}`, { method: 'POST', headers: bearer(p.keys.admin) });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ done: true });
    };
    // The route reads the real clock, so the oldest day kept must not move during the test: near midnight, it waits for it.
    const toMidnight = Date.parse(`${utcDay(Date.now() + DAY_MS)}T00:00:00Z`) - Date.now();
    if (toMidnight < 10_000) await new Promise((resolve) => setTimeout(resolve, toMidnight + 100));
    // Raw rows go in whole days of arrival: by the real clock the oldest day kept is the one 90 days ago.
    const oldestKept = Date.parse(`${utcDay(Date.now() - 90 * DAY_MS)}T00:00:00Z`);
    const arrived = async (t: TraceInput, at: number) => {
      expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t })).status).toBe(200);
      const events = { events: [event({ traceId: t.traceId, signalType: 'thumbs_down' })] };
      expect((await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: events })).status).toBe(200);
      await moveArrival(t.traceId, at);
    };
    const moveArrival = (traceId: string, at: number) => arrivedAt(p.id, [traceId], at);
    const stored = async (t: TraceInput) => {
      const rows = async (table: string) =>
        (await env.DB.prepare(`select count(*) as n from ${table} where project_id = ? and trace_id = ?`).bind(p.id, t.traceId).first<{ n: number }>())!.n;
      return [await rows('traces'), await rows('feedback_events')];
    };
    const within = trace();
    const past = trace();
    await arrived(within, oldestKept);
    await arrived(past, oldestKept - 3_600_000);
    // The next UTC midnight: less than a day ahead, and a day later, whose retention would take the first.
    const midnight = Date.parse(`${utcDay(Date.now() + DAY_MS)}T00:00:00Z`);
    await nightly(`?at=${midnight}`);
    expect(await stored(within)).toEqual([1, 1]);
    expect(await stored(past)).toEqual([0, 0]);
    // A simulation's rows arrive at the real time: weeks ahead, it purges by the real clock too.
    await nightly(`?at=${Date.now() + 200 * DAY_MS}&simulate=true`);
    expect(await stored(within)).toEqual([1, 1]);
    // Tonight's run purges what is past retention by the clock.
    await moveArrival(within.traceId, oldestKept - 1);
    await nightly('');
    expect(await stored(within)).toEqual([0, 0]);
  }, 20_000); // with the wait for midnight

  it("leaves tonight's run under way what it listed when the night asked for is tomorrow's", async () => {
    const p = await newProject();
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: trace() })).status).toBe(200);
    // One moment for tonight's runs, so they stay in one night however near midnight the test runs.
    const now = Date.now();
    const tonight = utcDay(now);
    const listed = async () =>
      (await env.DB.prepare('select count(*) as n from loop_touched where project_id = ? and night = ?').bind(p.id, tonight).first<{ n: number }>())!.n;
    // The cron's run of tonight, cut short once it has listed what it goes through.
    for (let i = 0; (await listed()) === 0; i++) {
      expect(i).toBeLessThan(10);
      await runNightly(env, now, { projects: [p.id], maxSlices: 1 });
    }
    const before = await listed();
    const midnight = Date.parse(`${utcDay(now + DAY_MS)}T00:00:00Z`);
    const res = await call(`/v1/admin/nightly?at=${midnight}`, { method: 'POST', headers: bearer(p.keys.admin) });
    expect(await res.json()).toMatchObject({ night: utcDay(midnight), done: true });
    // Not a run abandoned: it goes on with its lists.
    expect(await listed()).toBe(before);
    expect((await runNightly(env, now, { projects: [p.id] })).done).toBe(true);
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
