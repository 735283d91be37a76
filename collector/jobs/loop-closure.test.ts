import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { recordModel } from '../storage/models.ts';
import { adminCall as admin, newProject } from '../test/fixtures.ts';
import { answeredItem, trainedModel } from '../test/review-items.ts';
import { tinyModel } from '../test/tiny-model.ts';
import { runNightly } from './nightly.ts';

describe('loop closure in the health snapshot', () => {
  it('is the share of the training examples as they stand that the served model was trained on, never above 1', async () => {
    const p = await newProject();
    const trainedAt = Date.now() - 3_600_000;
    const item = (n: number, answeredAt: number) => answeredItem(p.id, n, 'relevant', answeredAt);
    // A model trained on three examples, served.
    await env.DB.batch([
      item(1, trainedAt - 60_000),
      item(2, trainedAt - 60_000),
      item(3, trainedAt - 60_000),
      trainedModel(p.id, 'm1', trainedAt, 3, 'promoted'),
      env.DB.prepare(`insert into model_rollouts (project_id, seq, at, action, version, reason) values (?, 1, ?, 'promote', 'm1', 'test')`).bind(
        p.id,
        trainedAt,
      ),
    ]);
    // Since then: two answers taken back, and one new example the model never saw.
    await admin(p, '/review/item-2', { method: 'POST', json: { verdict: null } });
    await admin(p, '/review/item-3', { method: 'POST', json: { verdict: null } });
    await env.DB.batch([item(4, Date.now() - 60_000)]);

    expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);
    const health = await admin<{ latest: { servedModel: string | null; metrics: Record<string, number | null> } }>(p, '/health');
    // Of the two examples left, the model was trained on one.
    expect(health.body.latest.metrics.loopClosureRate).toBe(0.5);
    // The night's figures name the model they are about (the console draws eval scores per version).
    expect(health.body.latest.servedModel).toBe('m1');
  });

  it("leaves out an answer changed after the served model's training read its data, though a night run ahead dates the model after it", async () => {
    const p = await newProject();
    const readAt = Date.now() - 60_000;
    await env.DB.batch([answeredItem(p.id, 1, 'relevant', readAt - 60_000), answeredItem(p.id, 2, 'relevant', readAt - 60_000)]);
    // Trained and served by a simulated night over a week ahead, from the answers as they stood at `readAt`.
    const night = Date.now() + 8 * 86_400_000;
    const recorded = await recordModel(env.DB, p.id, {
      model: tinyModel('ahead'),
      trainedBy: 'nightly',
      confirmed: 2,
      comparedWith: null,
      evaluation: {},
      promote: true,
      findings: [],
      reasons: ['gate'],
      at: night,
      dataReadAt: readAt,
    });
    expect(recorded).toEqual({ outcome: 'recorded' });
    // Since then, by the real clock: a reviewer changes one answer.
    expect((await admin(p, '/review/item-2', { method: 'POST', json: { verdict: 'not_relevant' } })).status).toBe(200);

    expect((await runNightly(env, night + 60_000, { projects: [p.id] })).done).toBe(true);
    const health = await admin<{ latest: { servedModel: string | null; metrics: Record<string, number | null> } }>(p, '/health');
    expect(health.body.latest.servedModel).toBe('ahead');
    // Of the two examples, the model saw one as it stands.
    expect(health.body.latest.metrics.loopClosureRate).toBe(0.5);
  });

  it('counts for a first model recorded without dataReadAt the examples answered before it was recorded, at most as many as it was trained on', async () => {
    const p = await newProject();
    await env.DB.batch([1, 2, 3].map((n) => answeredItem(p.id, n, 'relevant', Date.now() - 60_000)));
    // Trained by hand on two of them (the third answered while it trained), posted without its read, served.
    const posted = await admin(p, '/models', {
      method: 'POST',
      json: { model: tinyModel('by-hand'), confirmed: 2, comparedWith: null, evaluation: {}, promote: true, reasons: ['by hand'] },
    });
    expect(posted.status).toBe(201);
    // Answered after: new to the model.
    await env.DB.batch([answeredItem(p.id, 4, 'relevant', Date.now() + 1)]);

    expect((await runNightly(env, Date.now() + 1_000, { projects: [p.id] })).done).toBe(true);
    const health = await admin<{ latest: { servedModel: string | null; metrics: Record<string, number | null> } }>(p, '/health');
    expect(health.body.latest.servedModel).toBe('by-hand');
    // Of the four examples, it was trained on two.
    expect(health.body.latest.metrics.loopClosureRate).toBe(0.5);
  });

  it('is unknown for a model recorded without dataReadAt after models that read theirs, and the night says why', async () => {
    const p = await newProject();
    const readAt = Date.now() - 120_000;
    await env.DB.batch([answeredItem(p.id, 1, 'relevant', readAt - 60_000), answeredItem(p.id, 2, 'relevant', readAt - 60_000)]);
    const nightly = { trainedBy: 'nightly' as const, evaluation: {}, promote: true, findings: [], reasons: ['gate'] };
    const first = { ...nightly, model: tinyModel('nightly'), confirmed: 2, comparedWith: null, at: readAt, dataReadAt: readAt };
    expect(await recordModel(env.DB, p.id, first)).toEqual({ outcome: 'recorded' });
    // Answered after that read; then a model trained by hand from an export of unknown time, posted without its read.
    await env.DB.batch([answeredItem(p.id, 3, 'relevant', readAt + 60_000)]);
    const posted = await admin(p, '/models', {
      method: 'POST',
      json: { model: tinyModel('by-hand'), confirmed: 3, comparedWith: 'nightly', evaluation: {}, promote: true, reasons: ['by hand'] },
    });
    expect(posted.status).toBe(201);

    const run = await runNightly(env, Date.now() + 1_000, { projects: [p.id] });
    expect(run.done).toBe(true);
    const health = await admin<{ latest: { servedModel: string | null; metrics: Record<string, number | null> } }>(p, '/health');
    expect(health.body.latest.servedModel).toBe('by-hand');
    // It saw two of the three examples, or all three: not the two the read before it would count.
    expect(health.body.latest.metrics.loopClosureRate).toBeNull();
    expect(JSON.stringify(run)).toContain('loopClosureRate left null: by-hand was recorded without dataReadAt');
  });
});
