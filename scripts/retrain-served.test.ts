/**
 * `npm run retrain` against the model the collector serves, when it cannot judge it as users get
 * it: an artifact that cannot be read (stored before artifacts were checked as they are now) is
 * compared as retrieval's order yet named as what the new model replaces; a model with embedding
 * features, retrained without its embedder, is not replaced.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../shared/schema/settings.ts';
import { trainingWorld } from '../shared/training/fixture.ts';
import { trainReranker } from '../shared/training/train.ts';
import { type AdminApiStub, stubAdminApi } from './admin-api-stub.ts';
import { retrainRemote, type TrainingPayload } from './retrain/retrain-remote.ts';

const { data, heldOut } = trainingWorld();
const payload: TrainingPayload = { data, evalQueries: heldOut, current: null, settings: DEFAULT_LOOP_SETTINGS, newExamples: true, readAt: Date.now() };
let collector: AdminApiStub | undefined;
afterEach(() => collector?.close());

/** Retrains against a collector answering `training` and storing whatever is posted; the posted body. */
async function posted(training: TrainingPayload, lines: string[] = []) {
  collector = await stubAdminApi({
    'GET /v1/admin/training-data': { status: 200, body: training },
    'POST /v1/admin/models': { status: 201, body: { version: 'x', promoted: false, current: null } },
  });
  const outcome = await retrainRemote({ endpoint: collector.url, adminKey: 'rfa_x' }, { log: (l) => lines.push(l) });
  expect(outcome).toMatchObject({ trained: true, recorded: true });
  const request = collector.requests.at(-1)!;
  expect(request.route).toBe('POST /v1/admin/models');
  return request.body as { comparedWith: string | null; promote: boolean; findings: { kind: string }[] };
}

describe('npm run retrain and the served model', () => {
  it('compares with retrieval order while the served artifact cannot be read, naming the served version, so a promotion is not refused as stale', async () => {
    const lines: string[] = [];
    expect(await posted({ ...payload, current: null, currentVersion: 'legacy-1' }, lines)).toMatchObject({ comparedWith: 'legacy-1' });
    expect(lines).toContain("the served legacy-1 cannot be read: compared with retrieval's order");
  });

  it('does not replace a model with embedding features when run without its embedder, which would rank it blind', async () => {
    const { model } = trainReranker(data, { version: 'with-embeddings', now: 0 });
    const served = {
      ...model,
      embedder: 'Xenova/all-MiniLM-L6-v2',
      features: [...model.features, 'embedding_similarity' as const],
      weights: [...model.weights, 2],
      mean: [...model.mean, 0],
      scale: [...model.scale, 1],
    };
    const body = await posted({ ...payload, current: served, currentVersion: served.version });
    expect(body).toMatchObject({ comparedWith: 'with-embeddings', promote: false, findings: [{ kind: 'current_not_comparable' }] });
  });
});
