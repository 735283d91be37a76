import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time.ts';
import { adminCall as admin, newProject } from '../test/fixtures.ts';

const DAY = 86_400_000;

describe('the health snapshot of a night run late', () => {
  it('counts the seven days before that night and its own, not the days after it', async () => {
    const p = await newProject();
    const night = Date.now() - 3 * DAY;
    // Ten answers a day from ten days before the night to today: the night's window holds eight days.
    const days = Array.from({ length: 14 }, (_, i) => utcDay(night + (i - 10) * DAY));
    await env.DB.batch(
      days.map((day) =>
        env.DB.prepare(
          `insert into day_stats (project_id, day, traces, with_signals, with_trusted, explicit_signals, implicit_signals, signals, trusted_signals, negative, requeried)
           values (?, ?, 10, 5, 5, 5, 0, 5, 5, 0, 0)`,
        ).bind(p.id, day),
      ),
    );
    await env.DB.batch(
      days.map((day) => env.DB.prepare('insert into client_drop_reports (project_id, event_id, day, dropped) values (?, ?, ?, 1)').bind(p.id, `e-${day}`, day)),
    );
    // A missed night, caught up now.
    expect((await admin(p, `/nightly?at=${night}`, { method: 'POST' })).status).toBe(200);
    const health = await admin<{ latest: { day: string; metrics: Record<string, number | null> } }>(p, '/health');
    expect(health.body.latest.day).toBe(utcDay(night));
    expect(health.body.latest.metrics).toMatchObject({ traces: 80, explicitSignals: 40, outboxDrops: 8 });
  });
});
