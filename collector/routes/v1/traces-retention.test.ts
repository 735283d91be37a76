import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchResult } from '../../../shared/schema/batch-result.ts';
import { DAY_MS, utcDay } from '../../../shared/time.ts';
import { runNightly } from '../../jobs/nightly.ts';
import { bearer, call, newProject, trace } from '../../test/fixtures.ts';

const KEPT_DAYS = 400;

afterEach(() => vi.restoreAllMocks());

/** A project with these settings (its aggregates kept KEPT_DAYS days), and a poster of traces to it. */
async function project(settings: Record<string, number> = { aggregateRetentionDays: KEPT_DAYS }) {
  const p = await newProject();
  const saved = await call('/v1/admin/settings', { method: 'PUT', headers: bearer(p.keys.admin), json: settings });
  expect(saved.status).toBe(200);
  const post = async (createdAt: number, sessionId: string) => {
    const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [trace({ createdAt, sessionId })] });
    return ((await res.json()) as BatchResult).results[0]!;
  };
  return { p, post };
}

// The job counts an answer in the first run after it arrives, which is the next night's once
// tonight's has counted its days: intake keeps to the days that run keeps, in whole UTC days.
describe("POST /v1/traces at the first day the next night's run keeps", () => {
  const today = Date.parse(`${utcDay(Date.now())}T00:00:00.000Z`);
  // The first day the next night (tomorrow's) keeps, and the last one it purges.
  const firstDay = utcDay(today + DAY_MS - KEPT_DAYS * DAY_MS);
  const firstStart = Date.parse(`${firstDay}T00:00:00.000Z`);

  it.each([
    ['at the start of a UTC day', today],
    ['at its last millisecond', today + DAY_MS - 1],
  ])('takes an answer made at its first millisecond and refuses one made a millisecond before, arriving %s', async (_, now) => {
    const { p, post } = await project();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    expect(await post(firstStart, 's-first')).toMatchObject({ status: 'accepted' });
    expect(await post(firstStart - 1, 's-before')).toMatchObject({
      status: 'rejected',
      field: 'traces[0].createdAt',
      reason: expect.stringContaining(`is before ${firstDay}`),
    });
    // UTC days, whatever offset the backend's clock was read in: 23:30 the evening before at UTC-2 is the first day.
    expect(await post(Date.parse(`${utcDay(firstStart - DAY_MS)}T23:30:00-02:00`), 's-west')).toMatchObject({ status: 'accepted' });
    expect(await post(Date.parse(`${firstDay}T01:30:00+02:00`), 's-east')).toMatchObject({ status: 'rejected', field: 'traces[0].createdAt' });

    // The next night counts what was taken and keeps it: its day and its sessions.
    const night = today + DAY_MS + 60_000;
    vi.spyOn(Date, 'now').mockReturnValue(night);
    const summary = await runNightly(env, night, { projects: [p.id] });
    expect(summary.runs[0]).toMatchObject({ status: 'done' });
    const day = await env.DB.prepare('select traces from day_stats where project_id = ? and day = ?').bind(p.id, firstDay).first();
    expect(day).toEqual({ traces: 2 });
    const sessions = await env.DB.prepare('select session_id from session_stats where project_id = ? order by session_id').bind(p.id).all();
    expect(sessions.results).toEqual([{ session_id: 's-first' }, { session_id: 's-west' }]);
  });

  it('keeps to today with the shortest retention, a day: an answer of the evening before, arriving just after midnight, is refused', async () => {
    const { post } = await project({ retentionDays: 1, aggregateRetentionDays: 1 });
    vi.spyOn(Date, 'now').mockReturnValue(today + 500);
    expect(await post(today, 's-today')).toMatchObject({ status: 'accepted' });
    expect(await post(today - 1, 's-yesterday')).toMatchObject({ status: 'rejected', field: 'traces[0].createdAt' });
  });
});
