/**
 * `npm run retrain --embedding-model` records the embedder as the client names it, weights
 * included, so `rerank()` given the same model uses the embedding features, and given a rebuild
 * with other weights does not.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransformersEmbedder } from '../client/transformers-embedder.ts';
import { DEFAULT_LOOP_SETTINGS } from '../shared/schema/settings.ts';
import { trainingWorld } from '../shared/training/fixture.ts';
import { type AdminApiStub, stubAdminApi } from './admin-api-stub.ts';
import { buildTinyModel } from './embedding-models/tiny-model.ts';
import type { TrainingPayload } from './retrain/retrain-remote.ts';
import { ROOT } from './wrangler.ts';

let dir: string;
let collector: AdminApiStub | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rf-retrain-embedder-'));
});
afterAll(async () => {
  await collector?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('npm run retrain with an embedding model the repo built', () => {
  it("records the embedder's id with its weights, as createTransformersEmbedder names it", async () => {
    const { modelId, localModelPath } = await buildTinyModel(dir);
    const { data, heldOut } = trainingWorld();
    const payload: TrainingPayload = { data, evalQueries: heldOut, current: null, settings: DEFAULT_LOOP_SETTINGS, newExamples: true, readAt: Date.now() };
    collector = await stubAdminApi({
      'GET /v1/admin/training-data': { status: 200, body: payload },
      'POST /v1/admin/models': { status: 201, body: { version: 'x', promoted: false, current: null } },
    });
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    const args = ['scripts/retrain.ts', '--endpoint', collector.url, '--admin-key', 'rfa_x', '--embedding-model', modelId, '--model-dir', localModelPath];
    await promisify(execFile)(tsx, args, { cwd: ROOT });
    const id = createTransformersEmbedder({ model: modelId, localModelPath }).id;
    expect(id).toMatch(/@[0-9a-f]{12}:quantized$/);
    const posted = collector.requests.find((r) => r.route === 'POST /v1/admin/models')?.body as { model: { embedder?: string } } | undefined;
    expect(posted?.model.embedder).toBe(id);
  });
});
