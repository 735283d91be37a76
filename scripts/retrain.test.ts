/**
 * The command-line side of retraining against a real collector under wrangler dev: `npm run
 * retrain` refuses without enough confirmed examples, a model trained in Node ranks the same in
 * Node (`createReranker`) as in workerd (`POST /v1/rerank`), and `npm run rollback` restores the
 * model served before.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReranker } from '../client/reranker.ts';
import { trainingWorld } from '../shared/training/fixture.ts';
import { trainReranker } from '../shared/training/train.ts';
import { admin } from './admin-api.ts';
import { type LocalCollector, NO_RATE_LIMITS, startLocalCollector } from './local-collector.ts';
import { retrainRemote } from './retrain/retrain-remote.ts';

const run = promisify(execFile);
let collector: LocalCollector;
const target = () => ({ endpoint: collector.url, adminKey: collector.keys.admin });

beforeAll(async () => {
  collector = await startLocalCollector({ vars: NO_RATE_LIMITS });
}, 60_000);
afterAll(() => collector?.stop());

/** Records a model trained here; `comparedWith`: what its gate compared it with, as users got it then. */
async function postModel(version: string, comparedWith: string | null = null) {
  const { model } = trainReranker(trainingWorld().data, { version, now: Date.now() });
  await admin(target(), '/models', { method: 'POST', json: { model, confirmed: 80, comparedWith, evaluation: {}, promote: true, reasons: ['test'] } });
  return model;
}

describe('retraining from Node', { timeout: 60_000 }, () => {
  it('refuses below the minimum of confirmed examples and says why', async () => {
    const lines: string[] = [];
    const outcome = await retrainRemote(target(), { log: (l) => lines.push(l) });
    expect(outcome).toMatchObject({ trained: false, reason: '0 confirmed examples; training needs at least 30' });
    expect(lines).toContain('embeddings: none configured, so the model uses lexical features only');
    const cli = run('npx', ['tsx', 'scripts/retrain.ts', '--endpoint', collector.url, '--admin-key', collector.keys.admin]);
    await expect(cli).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Not trained: 0 confirmed examples; training needs at least 30.') });
  });

  it('ranks the same in Node and in workerd, and rolls back in one command', async () => {
    const first = await postModel('node-1');
    const { heldOut } = trainingWorld();
    const reranker = createReranker({ endpoint: collector.url, serverKey: collector.keys.server });
    let moved = 0;
    for (const q of heldOut.slice(0, 8)) {
      const node = (await reranker.rerank(q.query, q.candidates)).map((c) => [c.chunkId, c.rerankScore.toFixed(9)]);
      const res = await fetch(`${collector.url}/v1/rerank`, {
        method: 'POST',
        headers: { authorization: `Bearer ${collector.keys.server}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: q.query, chunks: q.candidates }),
      });
      const workerd = ((await res.json()) as { chunks: { chunkId: string; rerankScore: number }[] }).chunks.map((c) => [c.chunkId, c.rerankScore.toFixed(9)]);
      expect(node).toEqual(workerd);
      if (node[0]![0] !== q.candidates[0]!.chunkId) moved++;
    }
    expect(moved).toBeGreaterThan(0);
    expect(reranker.version).toBe(first.version);

    await postModel('node-2', 'node-1');
    await reranker.refresh();
    expect(reranker.version).toBe('node-2');
    const rollback = (...args: string[]) =>
      run('npx', ['tsx', 'scripts/rollback.ts', '--endpoint', collector.url, '--admin-key', collector.keys.admin, ...args]);
    // Meant for a model no longer served (node-2 was promoted over it): nothing changes, and it says what users get.
    await expect(rollback('--version', 'node-1')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('Users get node-2 now, not node-1') });
    await reranker.refresh();
    expect(reranker.version).toBe('node-2');
    const { stdout } = await rollback('--version', 'node-2');
    expect(stdout).toContain('Rolled back node-2; users now get node-1.');
    await reranker.refresh();
    expect(reranker.version).toBe('node-1');
    // Rolled back to retrieval's order, then once more: nothing to roll back, said plainly.
    await rollback();
    const again = rollback();
    await expect(again).rejects.toMatchObject({ code: 1, stderr: "Nothing to roll back: no model is served, users get retrieval's order already.\n" });
  });

  it('refuses with nothing answered since the last model, naming the command that trains anyway, which gets past it', async () => {
    await postModel('node-3');
    const retrain = (...args: string[]) => run('npx', ['tsx', 'scripts/retrain.ts', '--endpoint', collector.url, '--admin-key', collector.keys.admin, ...args]);
    await expect(retrain('--dry-run')).rejects.toMatchObject({
      code: 1,
      stderr: `Not trained: no confirmed example is new since the last model. \`npm run retrain -- --endpoint ${collector.url} --admin-key <admin key> --dry-run --force\` trains anyway.\n`,
    });
    // Forced, it gets past that refusal, to the next one: no confirmed examples to train on.
    await expect(retrain('--dry-run', '--force')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Not trained: 0 confirmed examples; training needs at least 30.'),
    });
  });
});
