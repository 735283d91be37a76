import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { answerItem } from '../../storage/review.ts';
import { adminCall as admin, newProject } from '../../test/fixtures.ts';
import { answeredItem, trainedModel } from '../../test/review-items.ts';
import { tinyModel } from '../../test/tiny-model.ts';

type Training = { training: { examples: number; trainedOn: number; ready: boolean } };

const answeredAt = async (projectId: string, itemId: string) =>
  (await env.DB.prepare('select answered_at as at from review_items where project_id = ? and item_id = ?').bind(projectId, itemId).first<{ at: number }>())!.at;

/** A project with two answers, ready to train at one example, whose training data was just read. */
async function projectRead() {
  const p = await newProject();
  await env.DB.batch([answeredItem(p.id, 1, 'relevant', Date.now() - 60_000), answeredItem(p.id, 2, 'not_relevant', Date.now() - 60_000)]);
  await admin(p, '/settings', { method: 'PUT', json: { trainingMinConfirmed: 1 } });
  const { readAt } = (await admin<{ readAt: number }>(p, '/training-data')).body;
  return { p, readAt };
}

/** The model `npm run retrain` records from the two answers, with the read's time when it sends it. */
const retrained = (dataReadAt?: number) => ({
  model: tinyModel('retrain-1'),
  confirmed: 2,
  comparedWith: null,
  evaluation: {},
  promote: false,
  reasons: ['by hand'],
  ...(dataReadAt !== undefined && { dataReadAt }),
});

/** Retraining is due: an answer is new to the last model, though the count is the same. */
async function expectNewToModel(p: Awaited<ReturnType<typeof newProject>>) {
  expect((await admin<Training>(p, '/review')).body.training).toMatchObject({ examples: 2, trainedOn: 2, ready: true });
  expect((await admin<{ newExamples: boolean }>(p, '/training-data')).body.newExamples).toBe(true);
}

describe('GET /v1/admin/review training readiness', () => {
  it('is ready when an answer changed since the last model, as the nightly job retrains then, though the count is the same', async () => {
    const p = await newProject();
    const trainedAt = Date.now() - 3_600_000;
    await env.DB.batch([
      answeredItem(p.id, 1, 'relevant', trainedAt - 60_000),
      answeredItem(p.id, 2, 'not_relevant', trainedAt - 60_000),
      trainedModel(p.id, 'm1', trainedAt, 2, 'rejected'),
    ]);
    await admin(p, '/settings', { method: 'PUT', json: { trainingMinConfirmed: 1 } });
    expect((await admin<Training>(p, '/review?status=answered')).body.training).toMatchObject({ examples: 2, trainedOn: 2, ready: false });

    // A reviewer changes an answer: as many examples as the model saw, one of them new to it.
    expect((await admin(p, '/review/item-1', { method: 'POST', json: { verdict: 'not_relevant' } })).status).toBe(200);
    const after = await admin<Training>(p, '/review');
    expect(after.body.training).toMatchObject({ examples: 2, trainedOn: 2, ready: true });
  });

  it('is not ready when a reviewer only gives an answer again as it was, and the answer keeps its time', async () => {
    const p = await newProject();
    const trainedAt = Date.now() - 3_600_000;
    const answeredAt = trainedAt - 60_000;
    await env.DB.batch([answeredItem(p.id, 3, 'relevant', answeredAt), trainedModel(p.id, 'm1', trainedAt, 1, 'rejected')]);
    await admin(p, '/settings', { method: 'PUT', json: { trainingMinConfirmed: 1 } });
    // The same key pressed again, with a note this time.
    const again = await admin<{ verdict: string; note: string; answeredAt: number }>(p, '/review/item-3', {
      method: 'POST',
      json: { verdict: 'relevant', note: 'checked twice' },
    });
    expect(again.body).toMatchObject({ verdict: 'relevant', note: 'checked twice', answeredAt });
    expect((await admin<Training>(p, '/review')).body.training).toMatchObject({ examples: 1, trainedOn: 1, ready: false });
    expect((await admin<{ newExamples: boolean }>(p, '/training-data')).body.newExamples).toBe(false);
  });

  it('is ready for an answer changed between reading the training data and recording its model', async () => {
    // `npm run retrain` reads the data, trains, then records the model with the data's `readAt`.
    const { p, readAt } = await projectRead();
    await new Promise((r) => setTimeout(r, 5));
    expect((await admin(p, '/review/item-1', { method: 'POST', json: { verdict: 'not_relevant' } })).status).toBe(200);
    const model = retrained(readAt);
    expect((await admin(p, '/models', { method: 'POST', json: model })).status).toBe(201);
    await expectNewToModel(p);
  });

  it('is ready for an answer changed after the training data was read, for a model recorded without dataReadAt, though the data was exported since', async () => {
    const { p } = await projectRead();
    await new Promise((r) => setTimeout(r, 5));
    expect((await admin(p, '/review/item-1', { method: 'POST', json: { verdict: 'not_relevant' } })).status).toBe(200);
    // The data exported after the answer: a read that trained nothing, made after the one the model was trained from.
    expect((await admin(p, '/training-data')).status).toBe(200);
    // Recorded as a script that does not send the read's time records it.
    expect((await admin(p, '/models', { method: 'POST', json: retrained() })).status).toBe(201);
    await expectNewToModel(p);
  });

  it('takes a model recorded without dataReadAt to have read its data when the models before it did, the first before any answer', async () => {
    const readBy = async (projectId: string, version: string) =>
      (await env.DB.prepare('select data_read_at as at from models where project_id = ? and version = ?').bind(projectId, version).first<{ at: number }>())!.at;
    const { p, readAt } = await projectRead();
    expect((await admin(p, '/models', { method: 'POST', json: retrained() })).status).toBe(201);
    expect(await readBy(p.id, 'retrain-1')).toBe(0);
    expect((await admin(p, '/models', { method: 'POST', json: { ...retrained(readAt), model: tinyModel('retrain-2') } })).status).toBe(201);
    expect((await admin(p, '/training-data')).status).toBe(200);
    expect((await admin(p, '/models', { method: 'POST', json: { ...retrained(), model: tinyModel('retrain-3') } })).status).toBe(201);
    expect(await readBy(p.id, 'retrain-3')).toBe(readAt);
    // The last model all the same: what it was trained on is what the next training is held against.
    expect((await admin<Training>(p, '/review')).body.training).toMatchObject({ examples: 2, trainedOn: 2, ready: false });
  });

  it('is ready for an answer stamped before the training data was read but saved after it, which the read missed', async () => {
    const { p, readAt } = await projectRead();
    // The reviewer's request read its clock a second before the read, and saved the answer after it.
    expect(await answerItem(env.DB, p.id, 'item-1', 'not_relevant', null, readAt - 1_000)).toBe('answered');
    expect(await answeredAt(p.id, 'item-1')).toBeGreaterThan(readAt);
    const model = retrained(readAt);
    expect((await admin(p, '/models', { method: 'POST', json: model })).status).toBe(201);
    await expectNewToModel(p);
  });

  it('keeps the time of an answer saved before any training read, and of one given again as it was', async () => {
    const p = await newProject();
    const at = Date.now() - 60_000;
    await env.DB.batch([answeredItem(p.id, 1, 'relevant', at - 60_000)]);
    expect(await answerItem(env.DB, p.id, 'item-1', 'not_relevant', null, at)).toBe('answered');
    const { readAt } = (await admin<{ readAt: number }>(p, '/training-data')).body;
    expect(await answerItem(env.DB, p.id, 'item-1', 'not_relevant', 'same answer', readAt + 1_000)).toBe('answered');
    expect(await answeredAt(p.id, 'item-1')).toBe(at);
  });
});
