import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/wrangler.ts';

/** `npm run demo` as a user starts it, with the environment given; what it wrote to stderr and its exit code. */
function runDemo(env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'demo', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DEMO_PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr.trim() };
}

describe('npm run demo', () => {
  it('says in one line that DEMO_CORPUS does not exist, and exits 1', () => {
    const missing = join(ROOT, 'no-such-corpus');
    expect(runDemo({ DEMO_CORPUS: missing })).toEqual({
      status: 1,
      stderr: `error: ${missing} does not exist: give a BEIR directory (holding corpus.jsonl)`,
    });
  });

  it('reads a relative DEMO_CORPUS from where npm was run, not from the package root npm runs the script in', () => {
    // `cd demo && DEMO_CORPUS=corpora/mine npm run demo`: npm runs it from ROOT, and says where it was typed in INIT_CWD.
    const typedIn = join(ROOT, 'demo');
    expect(runDemo({ DEMO_CORPUS: 'corpora/mine', INIT_CWD: typedIn }).stderr).toBe(
      `error: ${join(typedIn, 'corpora', 'mine')} does not exist: give a BEIR directory (holding corpus.jsonl)`,
    );
  });

  it('refuses a DEMO_PORT that is not a port in one line naming it', () => {
    expect(runDemo({ DEMO_PORT: 'abc' })).toEqual({ status: 1, stderr: 'error: DEMO_PORT must be a whole number from 0 to 65535, not "abc"' });
  });

  it('stops at once on a second Ctrl-C while the first waits for an answer on its way', async () => {
    // A language model that takes the question and never answers.
    const sockets: Socket[] = [];
    const model = createServer((socket) => sockets.push(socket));
    await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'demo', 'main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DEMO_PORT: '0',
        COLLECTOR_URL: 'http://127.0.0.1:9',
        DEMO_LLM_BASE_URL: `http://127.0.0.1:${(model.address() as { port: number }).port}/v1`,
        DEMO_LLM_MODEL: 'hung',
      },
    });
    try {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      await expect.poll(() => /demo chat on (\S+)/.exec(out)?.[1], { timeout: 20_000 }).toBeTruthy();
      const url = /demo chat on (\S+)/.exec(out)![1]!;
      const answer = fetch(`${url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: 's-1', query: 'How do I deploy to Cloudflare?', turnIndex: 0 }),
      }).catch(() => undefined);
      await expect.poll(() => sockets.length).toBe(1);
      child.kill('SIGINT');
      // Closing: no new request is taken, while the answer on its way is waited for (up to ten
      // seconds: the poll gives a busy machine five to handle the signal, well within them).
      await expect
        .poll(
          () =>
            fetch(`${url}/api/config`).then(
              () => 'open',
              () => 'closed',
            ),
          { timeout: 5_000 },
        )
        .toBe('closed');
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const [code] = await exited;
      // Not 0: that would be the close ending, after the ten seconds it gives the answer on its way.
      expect(code).toBe(130);
      expect(out).toContain('Ctrl-C again to stop now');
      await answer;
    } finally {
      child.kill('SIGKILL');
      for (const socket of sockets) socket.destroy();
      model.close();
    }
  });
});
