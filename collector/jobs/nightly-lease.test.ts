import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DAY_MS, utcDay } from '../../shared/time.ts';
import worker from '../index.ts';
import { leaseRun } from '../storage/loop-runs.ts';
import { countedD1 } from '../storage/sql/counted-d1.ts';
import { bearer, call, newProject, trace } from '../test/fixtures.ts';
import { hookedD1 } from '../test/hooked-d1.ts';
import { runScheduled } from './index.ts';
import { HANGUP_SLICES_MS, runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

/** A project with an answer stored, so its night has slices to run. */
async function busyProject(): Promise<Project> {
  const p = await newProject();
  expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: trace() })).status).toBe(200);
  return p;
}

const runNow = (p: Project, at: number, DB?: D1Database) =>
  call(`/v1/admin/nightly?at=${at}`, { method: 'POST', headers: bearer(p.keys.admin), ...(DB && { bindings: { DB } }) });

const leaseOf = (projectId: string, night: string) =>
  env.DB.prepare('select lease_owner, lease_until, stage, stages from loop_runs where project_id = ? and night = ?')
    .bind(projectId, night)
    .first<{ lease_owner: string | null; lease_until: number | null; stage: number; stages: string }>();

const holdAs = (projectId: string, night: string, owner: string, until: number) =>
  env.DB.prepare('update loop_runs set lease_owner = ?, lease_until = ? where project_id = ? and night = ?').bind(owner, until, projectId, night).run();

/** Starts `night`'s run of the project held by another invocation, `owner`, until then (a moment past: it crashed, and its hold lapsed). */
async function startedBy(projectId: string, night: string, owner: string, until: number): Promise<void> {
  expect(await leaseRun(env.DB, projectId, night, Date.now(), { owner, until }, Date.now())).toHaveProperty('run.night', night);
}

/** The first statement that saves a slice: the run is held then, its first slice run. */
const savesSlice = (sql: readonly string[]) => sql.some((s) => s.trimStart().startsWith('update loop_runs set status'));

afterEach(() => vi.restoreAllMocks());

/** The D1 of an invocation whose first save of a slice comes after another invocation ('next') took `night`'s run of the project. */
function takenOverAtFirstSave(projectId: string, night: string) {
  let tookOver = false;
  return hookedD1(env.DB, async ({ sql }, run) => {
    if (!tookOver && savesSlice(sql)) {
      tookOver = true;
      await holdAs(projectId, night, 'next', Date.now() + 60_000);
    }
    return run();
  });
}

describe("a night's run, held by one invocation at a time", () => {
  it('refuses a manual run with a 409 while another runs the night, and the cron skips it and logs so; the first runs to its end', async () => {
    // `alone`'s night runs uncontested: the same traffic, for the same results.
    const [p, alone] = [await busyProject(), await busyProject()];
    const at = Date.now();
    const night = utcDay(at);
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    let meanwhile: { status: number; body: unknown; until: number | null } | undefined;
    const db = hookedD1(env.DB, async ({ sql }, run) => {
      if (!meanwhile && savesSlice(sql)) {
        const until = (await leaseOf(p.id, night))!.lease_until;
        const res = await runNow(p, at);
        meanwhile = { status: res.status, body: await res.json(), until };
        // The cron fires meanwhile: it leaves the night alone, and does not call the invocation failed.
        await runScheduled(env, at, [p.id]);
      }
      return run();
    });
    const first = await runNow(p, at, db);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ night, done: true });
    expect(meanwhile!.status).toBe(409);
    expect(meanwhile!.body).toEqual({
      error: {
        code: 'nightly_in_progress',
        message: expect.stringContaining(`Night ${night}'s run is in progress`),
      },
    });
    expect((meanwhile!.body as { error: { message: string } }).error.message).toContain(new Date(meanwhile!.until!).toISOString());
    expect(logs).toHaveBeenCalledWith(
      JSON.stringify({ nightly: night, project: p.id, skipped: 'in progress', heldBy: night, heldUntil: new Date(meanwhile!.until!).toISOString() }),
    );
    // The night ran once, by the first invocation alone, as a project's night run uncontested does; its lease let go at its end.
    expect((await runNow(alone, at)).status).toBe(200);
    const slices = async (projectId: string) =>
      (JSON.parse((await leaseOf(projectId, night))!.stages) as { name: string; slices: number; counts: Record<string, number> }[]).map(
        ({ name, slices, counts }) => ({ name, slices, counts }),
      );
    expect(await slices(p.id)).toEqual(await slices(alone.id));
    expect(await leaseOf(p.id, night)).toMatchObject({ lease_owner: null, lease_until: null });
  });

  it('takes over a run whose lease has lapsed (its invocation crashed), and leaves one alone until then', async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    const until = Date.now() + 60_000;
    await startedBy(p.id, night, 'crashed', until);
    const refused = await runNow(p, at);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(new Date(until).toISOString());
    expect(JSON.parse((await leaseOf(p.id, night))!.stages)).toEqual([]);

    await holdAs(p.id, night, 'crashed', Date.now() - 1);
    const taken = await runNow(p, at);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toMatchObject({ night, done: true });
    expect((await leaseOf(p.id, night))!.lease_owner).toBeNull();
  });

  it('lets go of the run when a slice fails, so the next invocation runs it at once, on demand and from the cron', async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    const trigger = `fail_${p.id}`;
    await env.DB.prepare(
      `create trigger ${trigger} before insert on health_snapshots when new.project_id = '${p.id}' begin select raise(abort, 'disk full'); end`,
    ).run();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(runNightly(env, at, { projects: [p.id] })).rejects.toThrow(/disk full/);
      expect((await leaseOf(p.id, night))!.lease_owner).toBeNull();
      // The cron's invocation, which goes on with other projects, lets go of it too.
      await expect(runScheduled(env, at, [p.id])).rejects.toThrow(/1 project\(s\) failed/);
      expect((await leaseOf(p.id, night))!.lease_owner).toBeNull();
    } finally {
      await env.DB.prepare(`drop trigger if exists ${trigger}`).run();
    }
    const again = await runNow(p, at);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ night, done: true });
  });

  it("lets go of the run when its settings cannot be read, running no slice: isolated, its report says why; alone, the error is the caller's", async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    const DB = hookedD1(env.DB, async ({ sql }, run) => {
      if (sql.some((s) => s.includes('from loop_settings'))) throw new Error('settings unreadable');
      return run();
    });
    const { runs } = await runNightly({ ...env, DB }, at, { projects: [p.id], isolate: true });
    expect(runs).toEqual([{ projectId: p.id, status: 'running', stage: 'prepare', finishedAt: null, stages: [], error: 'start: settings unreadable' }]);
    expect((await leaseOf(p.id, night))!.lease_owner).toBeNull();
    await expect(runNightly({ ...env, DB }, at, { projects: [p.id] })).rejects.toThrow('settings unreadable');
    expect((await leaseOf(p.id, night))!).toMatchObject({ lease_owner: null, stage: 0, stages: '[]' });
    expect((await runNightly(env, at, { projects: [p.id] })).runs[0]).toMatchObject({ status: 'done' });
  });

  it('saves nothing of a slice that outlasted its lease once another invocation has taken the run, and says so', async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    const db = takenOverAtFirstSave(p.id, night);
    const { runs } = await runNightly({ ...env, DB: db }, at, { projects: [p.id] });
    expect(runs[0]).toMatchObject({ status: 'running', stage: 'prepare', error: expect.stringContaining('another invocation took the project over') });
    // Where the run was before the slice, held by the invocation that took it.
    expect(await leaseOf(p.id, night)).toMatchObject({ lease_owner: 'next', stage: 0, stages: '[]' });
  });
});

describe("a project's nights, one at a time whichever night", () => {
  it('refuses a run of another night with a 409 naming the night that holds the project and until when, and the cron of that night skips it; it runs once the first lets go', async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    const before = at - DAY_MS;
    const other = utcDay(before);
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    let meanwhile: { status: number; message: string; until: number | null } | undefined;
    const db = hookedD1(env.DB, async ({ sql }, run) => {
      if (!meanwhile && savesSlice(sql)) {
        const until = (await leaseOf(p.id, night))!.lease_until;
        const res = await runNow(p, before);
        meanwhile = { status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message, until };
        await runScheduled(env, before, [p.id]);
      }
      return run();
    });
    expect((await runNow(p, at, db)).status).toBe(200);
    expect(meanwhile!.status).toBe(409);
    expect(meanwhile!.message).toContain(`Night ${night}'s run is in progress`);
    expect(meanwhile!.message).toContain(new Date(meanwhile!.until!).toISOString());
    expect(meanwhile!.message).toContain(`try night ${other} again`);
    expect(logs).toHaveBeenCalledWith(
      JSON.stringify({ nightly: other, project: p.id, skipped: 'in progress', heldBy: night, heldUntil: new Date(meanwhile!.until!).toISOString() }),
    );
    // The other night was not even started meanwhile, and runs now.
    expect(await leaseOf(p.id, other)).toBeNull();
    const later = await runNow(p, before);
    expect(later.status).toBe(200);
    expect(await later.json()).toMatchObject({ night: other, done: true });
  });

  it("leaves the project alone while a crashed invocation's hold of another night lasts, and runs once it has lapsed", async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    const other = utcDay(at - DAY_MS);
    const until = Date.now() + 60_000;
    await startedBy(p.id, other, 'crashed', until);
    const refused = await runNow(p, at);
    expect(refused.status).toBe(409);
    const { message } = ((await refused.json()) as { error: { message: string } }).error;
    expect(message).toContain(`Night ${other}'s run is in progress`);
    expect(message).toContain(new Date(until).toISOString());
    // Refused before anything else: tonight's run is not even started.
    expect(await leaseOf(p.id, night)).toBeNull();

    await holdAs(p.id, other, 'crashed', Date.now() - 1);
    const taken = await runNow(p, at);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toMatchObject({ night, done: true });
  });

  it('spends on a project another invocation holds only the statement refusing it and the one saying who holds it', async () => {
    const p = await newProject();
    const at = Date.now();
    const other = utcDay(at - DAY_MS);
    const until = Date.now() + 60_000;
    await startedBy(p.id, other, 'crashed', until);
    const { db, queries } = countedD1(env.DB);
    const { runs } = await runNightly({ ...env, DB: db }, at, { projects: [p.id] });
    expect(runs).toEqual([{ projectId: p.id, status: 'running', stage: null, finishedAt: null, stages: [], heldBy: other, heldUntil: until }]);
    // Whose night is done, then the two.
    expect(queries()).toBe(3);
    expect(await leaseOf(p.id, utcDay(at))).toBeNull();
  });

  it('saves nothing of a slice that outlasted its lease once another night has taken the project, and says so', async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    const other = utcDay(at - DAY_MS);
    await startedBy(p.id, other, 'crashed', Date.now() - 1);
    const db = takenOverAtFirstSave(p.id, other);
    const { runs } = await runNightly({ ...env, DB: db }, at, { projects: [p.id] });
    expect(runs[0]).toMatchObject({ status: 'running', stage: 'prepare', error: expect.stringContaining('another invocation took the project over') });
    // Where the run was before the slice; this invocation let go of it.
    expect(await leaseOf(p.id, night)).toMatchObject({ lease_owner: null, stage: 0, stages: '[]' });
  });

  it('lets go of the project after a manual run whose client hung up: the run is handed to waitUntil, which outlives the request', async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    let leased!: () => void;
    const taken = new Promise<void>((resolve) => (leased = resolve));
    let released = false;
    const db = hookedD1(env.DB, async ({ sql }, run) => {
      const result = await run();
      if (sql.some((s) => s.trimStart().startsWith('insert into loop_runs'))) leased();
      if (sql.some((s) => s.trimStart().startsWith('update loop_runs set lease_owner = null'))) released = true;
      return result;
    });
    const ctx = createExecutionContext();
    const request = new Request(`http://collector.test/v1/admin/nightly?at=${at}`, {
      method: 'POST',
      headers: { ...bearer(p.keys.admin), 'cf-connecting-ip': '198.19.255.254' },
    });
    // Nothing waits on the response, as when the client has gone: what the runtime keeps going then is what was passed to waitUntil.
    const response = worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, DB: db }, ctx);
    await taken;
    await waitOnExecutionContext(ctx);
    expect(released).toBe(true);
    expect((await leaseOf(p.id, night))!.lease_owner).toBeNull();
    expect((await response).status).toBe(200);
  });

  it('holds no project once the time budget is spent: one not reached is reported unstarted, without a query, and the next call starts it', async () => {
    const [first, second] = [await busyProject(), await busyProject()];
    const at = Date.now();
    const night = utcDay(at);
    const clock = Date.now;
    let ahead = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => clock() + ahead);
    const asked: unknown[][] = [];
    // Each slice takes past the budget: the first project's first slice ends the invocation's time.
    const db = hookedD1(env.DB, async ({ sql, params }, run) => {
      asked.push(params.flat());
      if (savesSlice(sql)) ahead += 30_000;
      return run();
    });
    const summary = await runNightly({ ...env, DB: db }, at, { projects: [first.id, second.id], budgetMs: 20_000 });
    expect(summary.runs).toMatchObject([
      { projectId: first.id, status: 'running' },
      { projectId: second.id, status: 'running', stage: null },
    ]);
    expect(asked.filter((bound) => bound.includes(second.id))).toEqual([]);
    expect(await leaseOf(second.id, night)).toBeNull();

    vi.restoreAllMocks();
    expect((await runNightly(env, at, { projects: [second.id] })).done).toBe(true);
  });

  it('starts no slice past HANGUP_SLICES_MS after the client of a manual run hung up: the slice under way is saved, the project let go, and the next call goes on from there', async () => {
    const p = await busyProject();
    const at = Date.now();
    const night = utcDay(at);
    const clock = Date.now;
    let ahead = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => clock() + ahead);
    const client = new AbortController();
    let saved = 0;
    const db = hookedD1(env.DB, async ({ sql }, run) => {
      if (savesSlice(sql)) {
        saved++;
        // The client hangs up during the first slice; the second, started after it, ends past the cut-off.
        if (saved === 1) client.abort();
        if (saved === 2) ahead += HANGUP_SLICES_MS;
      }
      return run();
    });
    const ctx = createExecutionContext();
    const request = new Request(`http://collector.test/v1/admin/nightly?at=${at}`, {
      method: 'POST',
      headers: { ...bearer(p.keys.admin), 'cf-connecting-ip': '198.19.255.253' },
      signal: client.signal,
    });
    const hungUp = new Promise((resolve) => client.signal.addEventListener('abort', resolve));
    const response = worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, DB: db }, ctx);
    // What the runtime keeps going once the client has gone: the run, handed to waitUntil by then.
    await hungUp;
    await waitOnExecutionContext(ctx);
    // Both slices saved, none started after; well inside the budget, the run would have gone on to its end.
    expect(saved).toBe(2);
    const row = (await leaseOf(p.id, night))!;
    expect(row.lease_owner).toBeNull();
    expect((JSON.parse(row.stages) as { slices: number }[]).reduce((n, s) => n + s.slices, 0)).toBe(2);
    expect(await (await response).json()).toMatchObject({ night, done: false, runs: [{ projectId: p.id, status: 'running' }] });

    vi.restoreAllMocks();
    const next = await runNow(p, at);
    expect(await next.json()).toMatchObject({ night, done: true });
  });
});
