import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { adminCall as admin, newProject } from '../../test/fixtures.ts';

describe('GET /v1/admin/health', () => {
  it('answers the snapshots of the days asked for, counted back from the latest night, newest first', async () => {
    const p = await newProject();
    const days = ['2026-01-10', '2026-01-09', '2026-01-01', '2020-01-01'];
    await env.DB.batch(
      days.map((day, i) =>
        env.DB.prepare('insert into health_snapshots (project_id, day, metrics) values (?, ?, ?)').bind(p.id, day, JSON.stringify({ n: i })),
      ),
    );
    const read = async (query: string) => (await admin<{ latest: { day: string }; snapshots: { day: string }[] }>(p, `/health${query}`)).body;
    expect((await read('?days=3')).snapshots.map((s) => s.day)).toEqual(['2026-01-10', '2026-01-09']);
    const month = await read('');
    expect(month.snapshots.map((s) => s.day)).toEqual(['2026-01-10', '2026-01-09', '2026-01-01']);
    expect(month.latest.day).toBe('2026-01-10');
  });

  it("answers the model served each night beside the night's figures, null for nights that did not record it", async () => {
    const p = await newProject();
    await env.DB.batch([
      env.DB.prepare('insert into health_snapshots (project_id, day, metrics) values (?, ?, ?)').bind(
        p.id,
        '2026-01-02',
        JSON.stringify({ evalNdcg5: 0.6, servedModel: 'v2' }),
      ),
      env.DB.prepare('insert into health_snapshots (project_id, day, metrics) values (?, ?, ?)').bind(p.id, '2026-01-01', JSON.stringify({ evalNdcg5: 0.5 })),
    ]);
    const { snapshots } = (await admin<{ snapshots: unknown[] }>(p, '/health')).body;
    expect(snapshots).toEqual([
      { day: '2026-01-02', servedModel: 'v2', metrics: { evalNdcg5: 0.6 } },
      { day: '2026-01-01', servedModel: null, metrics: { evalNdcg5: 0.5 } },
    ]);
  });

  it('answers no snapshot before the first night', async () => {
    expect((await admin(await newProject(), '/health')).body).toEqual({ latest: null, snapshots: [] });
  });
});
