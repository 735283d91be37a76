import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { ROOT } from './wrangler.ts';

const run = promisify(execFile);
const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');

describe('the command-line tools', () => {
  it.each(['nightly', 'rollback', 'export-training', 'retrain'])(
    'npm run %s says in one line that the collector cannot be reached, and where',
    { timeout: 30_000 },
    async (tool) => {
      const endpoint = `http://127.0.0.1:${await freePort()}`; // nothing listens there
      const failed = await run(tsx, [join(ROOT, 'scripts', `${tool}.ts`), '--endpoint', endpoint, '--admin-key', 'rfa_x'], { cwd: ROOT }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^error: the collector at ${endpoint} cannot be reached \\(.+\\): is \`npm start\` running`)),
      ]);
    },
  );
});
