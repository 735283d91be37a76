import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Env } from './env.ts';
import { runNightly } from './jobs/nightly.ts';
import { MIN_QUERY_BUDGET } from './jobs/query-budget.ts';
import { bearer, call, event, newProject, ORIGIN, trace } from './test/fixtures.ts';
import { fakeQueue } from './test/queue.ts';

afterEach(() => vi.restoreAllMocks());

const post = (key: string, body: unknown, bindings: Partial<Env>) =>
  call('/v1/events', { method: 'POST', headers: { ...bearer(key), origin: ORIGIN }, json: body, bindings });

describe('a Worker setting holding a value it does not take', () => {
  it('EVENTS_INGEST mistyped writes events directly, loses none, says so once in the log and to the admin API', async () => {
    const p = await newProject();
    const { queue, sent } = fakeQueue();
    const bindings: Partial<Env> = { EVENTS_INGEST: 'queu', INGEST_QUEUE: queue as Queue };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { traceId } = trace();
    const batches = [[event({ traceId })], [event({ traceId, signalType: 'thumbs_up' })]];
    for (const events of batches) expect(await (await post(p.keys.write, { events }, bindings)).json()).toMatchObject({ accepted: 1 });
    expect(sent).toEqual([]);
    const stored = await env.DB.prepare('select count(*) as n from feedback_events where project_id = ?').bind(p.id).first<number>('n');
    expect(stored).toBe(2);
    const logged = errors.mock.calls.map((args) => String(args[0])).filter((line) => line.includes('EVENTS_INGEST'));
    expect(logged).toEqual([
      'Configuration error: EVENTS_INGEST is "queu", which it does not take (it takes "direct" or "queue"): read as "direct" until it is set right',
    ]);

    const project = await call('/v1/admin/project', { headers: bearer(p.keys.admin), bindings });
    expect(await project.json()).toMatchObject({
      configProblems: [{ variable: 'EVENTS_INGEST', value: 'queu', message: expect.stringContaining('takes "direct" or "queue"') }],
    });
  });

  it('a rate limit mistyped keeps its default, named in the log', async () => {
    const p = await newProject();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await post(p.keys.write, { events: [event({ traceId: trace().traceId })] }, { RATE_LIMIT_SESSION_PER_MIN: '6OO' });
    expect(await res.json()).toMatchObject({ accepted: 1 });
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/^Configuration error: RATE_LIMIT_SESSION_PER_MIN is "6OO".*read as 600 until/));
  });

  it('NIGHTLY_QUERY_BUDGET mistyped runs the night within the least budget that runs a slice, rather than the default', async () => {
    const p = await newProject();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const summary = await runNightly({ ...env, NIGHTLY_QUERY_BUDGET: '5OO' }, Date.now(), { projects: [p.id], maxSlices: 1 });
    expect(summary.runs[0]!.stages).not.toEqual([]);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining(`NIGHTLY_QUERY_BUDGET is "5OO"`));
    expect(errors).toHaveBeenCalledWith(expect.stringContaining(`read as ${MIN_QUERY_BUDGET} until`));
  });
});
