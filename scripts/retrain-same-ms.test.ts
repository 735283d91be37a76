/**
 * Two `npm run retrain` runs that name their models in the same millisecond both store one: the
 * registry refuses a version it holds (409 model_exists), and the later run takes the next
 * millisecond's name, so versions keep their format and sort as they were recorded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../shared/schema/settings.ts';
import { trainingWorld } from '../shared/training/fixture.ts';
import { type AdminApiStub, stubAdminApi } from './admin-api-stub.ts';
import { retrainRemote, retrainVersion, type TrainingPayload } from './retrain/retrain-remote.ts';

const { data, heldOut } = trainingWorld();
const payload: TrainingPayload = { data, evalQueries: heldOut, current: null, settings: DEFAULT_LOOP_SETTINGS, newExamples: true, readAt: Date.now() };
let collector: AdminApiStub | undefined;
afterEach(() => collector?.close());

/** A registry holding `held` already, refusing a version it holds as the collector does. */
async function registry(held: string[]) {
  const stored = new Set(held);
  collector = await stubAdminApi({
    'GET /v1/admin/training-data': { status: 200, body: payload },
    'POST /v1/admin/models': (body) => {
      const { version } = (body as { model: { version: string } }).model;
      if (stored.has(version))
        return { status: 409, body: { error: { code: 'model_exists', message: `A model ${version} is already stored`, field: 'model.version' } } };
      stored.add(version);
      return { status: 201, body: { version, promoted: false, current: null } };
    },
  });
  return stored;
}

describe('npm run retrain in the same millisecond as another run', () => {
  const now = Date.UTC(2026, 11, 7, 2, 15, 0, 123);

  it('stores both models, the later under the next free millisecond, which sorts after', async () => {
    const stored = await registry([retrainVersion(now), retrainVersion(now + 1)]);
    const outcome = await retrainRemote({ endpoint: collector!.url, adminKey: 'rfa_x' }, { now });
    expect(outcome).toMatchObject({ trained: true, recorded: true, model: { version: 'retrain-20261207T021500.125Z' } });
    expect([...stored].sort()).toEqual([retrainVersion(now), retrainVersion(now + 1), retrainVersion(now + 2)]);
  });

  it('reports the refusal, nothing stored, when every name it may take is taken', async () => {
    const taken = Array.from({ length: 100 }, (_, i) => retrainVersion(now + i));
    const stored = await registry(taken);
    const outcome = await retrainRemote({ endpoint: collector!.url, adminKey: 'rfa_x' }, { now });
    expect(outcome).toMatchObject({ trained: true, recorded: false, refused: expect.stringMatching(/^A model retrain-\S+ is already stored$/) });
    expect(stored.size).toBe(100);
  });
});
