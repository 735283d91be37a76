import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../shared/time.ts';
import { adminCall as admin, bearer, call, newProject, trace } from '../test/fixtures.ts';
import { runScheduled } from './index.ts';
import { runNightly } from './nightly.ts';

describe('the nightly job over every project', () => {
  it("goes on with the other projects when one project's night fails, notes why, and finishes it at the next invocation", async () => {
    const [broken, healthy] = [await newProject(), await newProject()];
    for (const p of [broken, healthy]) await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: trace() });
    const trigger = `fail_${broken.id}`;
    await env.DB.prepare(
      `create trigger ${trigger} before insert on health_snapshots when new.project_id = '${broken.id}' begin select raise(abort, 'disk full'); end`,
    ).run();
    const now = Date.now() + 1_000;
    try {
      const { runs } = await runNightly(env, now, { isolate: true, projects: [broken.id, healthy.id] });
      const of = (id: string) => runs.find((r) => r.projectId === id)!;
      expect(of(healthy.id)).toMatchObject({ status: 'done' });
      expect(of(broken.id)).toMatchObject({ status: 'running', error: expect.stringContaining('disk full') });
      const { body } = await admin<{ runs: { night: string; status: string; stage: string | null; stages: { note?: string }[] }[] }>(broken, '/runs');
      expect(body.runs[0]).toMatchObject({ night: utcDay(now), status: 'running', stage: 'health' });
      expect(body.runs[0]!.stages.some((s) => s.note?.includes('failed, to be tried again') && s.note.includes('disk full'))).toBe(true);
      // The cron's handler reports the invocation failed, so Workers Logs show it, after the other projects ran.
      await expect(runScheduled(env, now, [broken.id, healthy.id])).rejects.toThrow(/1 project\(s\) failed/);
      // Without isolation (one project's night on demand) the error is the caller's.
      await expect(runNightly(env, now, { projects: [broken.id] })).rejects.toThrow(/disk full/);
    } finally {
      await env.DB.prepare(`drop trigger if exists ${trigger}`).run();
    }
    const again = await runNightly(env, now, { projects: [broken.id], isolate: true });
    expect(again.runs[0]).toMatchObject({ status: 'done' });
    expect(again.runs[0]!.error).toBeUndefined();
    // The run done, its report no longer says the stage failed: the failure was tried again and got through.
    expect(again.runs[0]!.stages.find((s) => s.name === 'health')!.note).toBeUndefined();
    const { body } = await admin<{ runs: { status: string; stages: { name: string; note?: string }[] }[] }>(broken, '/runs');
    expect(body.runs[0]!.status).toBe('done');
    expect(body.runs[0]!.stages.filter((s) => s.note?.includes('failed'))).toEqual([]);
  });
});
