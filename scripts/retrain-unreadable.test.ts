/**
 * `npm run retrain` while the served model's artifact cannot be read (stored before artifacts were
 * checked as they are now): the collector sends it as no model, and the new one is compared with
 * retrieval's order, as the nightly job does, yet names the served version as what it replaces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../shared/schema/settings.ts';
import { trainingWorld } from '../shared/training/fixture.ts';
import { type AdminApiStub, stubAdminApi } from './admin-api-stub.ts';
import { retrainRemote, type TrainingPayload } from './retrain/retrain-remote.ts';

const { data, heldOut } = trainingWorld();
const payload: TrainingPayload = {
  data,
  evalQueries: heldOut,
  current: null,
  currentVersion: 'legacy-1',
  settings: DEFAULT_LOOP_SETTINGS,
  newExamples: true,
  readAt: Date.now(),
};
let collector: AdminApiStub;

beforeAll(async () => {
  collector = await stubAdminApi({
    'GET /v1/admin/training-data': { status: 200, body: payload },
    'POST /v1/admin/models': { status: 201, body: { version: 'x', promoted: true, current: 'x' } },
  });
});
afterAll(() => collector?.close());

describe('npm run retrain, the served model unreadable', () => {
  it('compares with what users get, named as the served version, so a promotion is not refused as stale', async () => {
    const lines: string[] = [];
    const outcome = await retrainRemote({ endpoint: collector.url, adminKey: 'rfa_x' }, { log: (l) => lines.push(l) });
    expect(outcome).toMatchObject({ trained: true, recorded: true });
    expect(lines).toContain("the served legacy-1 cannot be read: compared with retrieval's order");
    expect(collector.requests.at(-1)).toMatchObject({ route: 'POST /v1/admin/models', body: { comparedWith: 'legacy-1' } });
  });
});
