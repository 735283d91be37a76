/**
 * `npm run retrain` when the collector has moved on while it trained: a model promoted meanwhile
 * (409 stale_comparison) is said as such, after the gate's table, with nothing stored and exit 1.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../shared/schema/settings.ts';
import { trainingWorld } from '../shared/training/fixture.ts';
import { type AdminApiStub, stubAdminApi } from './admin-api-stub.ts';
import type { TrainingPayload } from './retrain/retrain-remote.ts';
import { ROOT } from './wrangler.ts';

const run = promisify(execFile);
const { data, heldOut } = trainingWorld();
const readAt = Date.now();
const payload: TrainingPayload = { data, evalQueries: heldOut, current: null, settings: DEFAULT_LOOP_SETTINGS, newExamples: true, readAt };
const STALE = "Its gate compared it with retrieval's order, but users get node-9 now: train again against that";
let collector: AdminApiStub;

beforeAll(async () => {
  collector = await stubAdminApi({
    'GET /v1/admin/training-data': { status: 200, body: payload },
    'POST /v1/admin/models': { status: 409, body: { error: { code: 'stale_comparison', message: STALE, field: 'comparedWith' } } },
  });
});
afterAll(() => collector?.close());

describe('npm run retrain, a model promoted while it trained', () => {
  it('says the model was not recorded and why, after the gate table, and exits 1', { timeout: 60_000 }, async () => {
    const cli = run(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/retrain.ts', '--endpoint', collector.url, '--admin-key', 'rfa_x'], {
      cwd: ROOT,
    });
    const failed = await cli.then(
      () => undefined,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(/Trained retrain-\d{8}T\d{6}\.\d{3}Z on 80 confirmed examples/);
    expect(failed?.stdout).toContain('nDCG@5');
    expect(failed?.stdout).not.toMatch(/^Promoted/m);
    // Run again as said, it reaches the same collector with the same options (the key itself is not printed back),
    // and trains though the model promoted meanwhile read the same answers, which would leave none new.
    expect(failed?.stderr).toBe(
      `Not recorded, nothing stored: ${STALE}. \`npm run retrain -- --endpoint ${collector.url} --admin-key <admin key> --force\` again trains against what is so now.\n`,
    );
    // It asked as the registry wants: compared with what users got when the data was read, read at the collector's time.
    expect(collector.requests.at(-1)).toMatchObject({ route: 'POST /v1/admin/models', body: { comparedWith: null, dataReadAt: readAt } });
  });
});
