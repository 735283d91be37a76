import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time.ts';
import { newProject, nightsAfterNow, sendTraffic, trace } from '../test/fixtures.ts';
import { runNightly } from './nightly.ts';

const DAY = 86_400_000;

/** Moves a project's stored traces (`ids`) and their events back to `at`, as if they had arrived then. */
async function arrivedAt(projectId: string, ids: readonly string[], at: number, receivedAt = at) {
  for (const id of ids) {
    await env.DB.prepare('update traces set created_at = ?, received_at = ? where project_id = ? and trace_id = ?').bind(at, receivedAt, projectId, id).run();
    await env.DB.prepare('update feedback_events set client_ts = ?, received_at = ? where project_id = ? and trace_id = ?')
      .bind(at, receivedAt, projectId, id)
      .run();
  }
}

// Aggregates outlive the raw rows they were counted from (730 days against 90): counting one again
// from what retention left of its rows would shrink it.
describe('aggregates past the raw rows’ retention', () => {
  it('keeps what a session counted before its first answers were purged when it goes on', async () => {
    const p = await newProject();
    const first = trace({ sessionId: 's-long' });
    await sendTraffic(p, [first], [{ traceId: first.traceId, sessionId: 's-long', signalType: 'thumbs_down' }]);
    await arrivedAt(p.id, [first.traceId], Date.now() - 91 * DAY);
    // Counted, then purged, in the same run.
    await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    const session = () =>
      env.DB.prepare("select traces, scored, negative from session_stats where project_id = ? and session_id = 's-long'").bind(p.id).first();
    expect(await session()).toEqual({ traces: 1, scored: 1, negative: 1 });
    expect((await env.DB.prepare('select count(*) as n from traces where project_id = ?').bind(p.id).first<{ n: number }>())!.n).toBe(0);
    // The session goes on with a new answer.
    await sendTraffic(p, [trace({ sessionId: 's-long' })]);
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(await session()).toEqual({ traces: 2, scored: 1, negative: 1 });
  });

  it('keeps a day as it was counted once some of its answers were purged, whatever later feedback touches it', async () => {
    const p = await newProject();
    // The day 91 days before the night as it runs, even when its second ahead of the clock crosses midnight.
    const night = Date.now() + 1_000;
    const day = utcDay(night - 91 * DAY);
    const start = Date.parse(`${day}T00:00:00Z`);
    const [early, late] = [trace({ sessionId: 's-early' }), trace({ sessionId: 's-late' })];
    await sendTraffic(p, [early, late], [{ traceId: early.traceId, sessionId: 's-early', signalType: 'thumbs_down' }]);
    // One answer of the day arrived that day; the other, made just before midnight, arrived after it.
    await arrivedAt(p.id, [early.traceId], start + DAY / 2);
    await arrivedAt(p.id, [late.traceId], start + DAY - 500, start + DAY + 500);
    await runNightly(env, night, { projects: [p.id] });
    const dayStats = () => env.DB.prepare('select traces, negative from day_stats where project_id = ? and day = ?').bind(p.id, day).first();
    expect(await dayStats()).toEqual({ traces: 2, negative: 1 });
    const kept = await env.DB.prepare('select trace_id from traces where project_id = ?').bind(p.id).all<{ trace_id: string }>();
    expect(kept.results.map((r) => r.trace_id)).toEqual([late.traceId]);
    // Feedback on the answer still stored touches its day again.
    await sendTraffic(p, [], [{ traceId: late.traceId, sessionId: 's-late', signalType: 'thumbs_up' }]);
    await runNightly(env, nightsAfterNow(1), { projects: [p.id] });
    expect(await dayStats()).toEqual({ traces: 2, negative: 1 });
  });
});
