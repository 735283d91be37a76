import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from './wrangler.ts';

const run = promisify(execFile);

describe('npm run screenshots', () => {
  it('refuses a set it does not know in one line, exit 1, rather than taking no picture and saying they were written', { timeout: 30_000 }, async () => {
    const failed = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'scripts', 'screenshots.ts'), 'consol'], { cwd: ROOT }).then(
      () => undefined,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failed).toMatchObject({ code: 1, stdout: '', stderr: 'error: no screenshot set "consol": give demo or console, or nothing for all\n' });
  });
});
