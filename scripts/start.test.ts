import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, holdPort } from './free-port.ts';
import { ROOT } from './wrangler.ts';

/** `npm start` with `env` given, until it exits (or is stopped after 20 s): its exit code and all it wrote. */
function start(env: Record<string, string>) {
  const { DEMO_CORPUS, DEMO_LLM_BASE_URL, DEMO_LLM_MODEL, DEMO_LLM_API_KEY, ...rest } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/start.ts')], {
    cwd: ROOT,
    env: { ...rest, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  // Had it started anything, its whole group goes.
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
  return new Promise<{ code: number | string | null; output: string }>((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, output });
    }),
  );
}

describe('npm start', () => {
  it('refuses a mistyped DEMO_CORPUS, half of DEMO_LLM_*, a taken DEMO_PORT or one port for both in one line, before migrating, building or starting anything', async () => {
    const missing = join(ROOT, 'no-such-corpus');
    const collectorPort = await freePort(); // free: the collector's port is not the one refused
    const taken = await holdPort();
    try {
      const [corpus, model, demoPort, samePort] = await Promise.all([
        start({ DEMO_CORPUS: missing }),
        start({ DEMO_LLM_MODEL: 'llama3' }),
        start({ PORT: String(collectorPort), DEMO_PORT: String(taken.port) }),
        start({ PORT: String(collectorPort), DEMO_PORT: String(collectorPort) }),
      ]);
      expect(corpus).toEqual({ code: 1, output: `error: ${missing} does not exist: give a BEIR directory (holding corpus.jsonl)\n` });
      expect(model).toEqual({
        code: 1,
        output: 'error: DEMO_LLM_MODEL is set but DEMO_LLM_BASE_URL is not: give both for generated answers, or neither\n',
      });
      // The collector's port is refused in the same words (scripts/wrangler.ts).
      expect(demoPort).toEqual({
        code: 1,
        output: `error: port ${taken.port} is taken by another process (listen EADDRINUSE: address already in use 127.0.0.1:${taken.port}) (is \`npm start\` running already? PORT and DEMO_PORT choose other ports)\n`,
      });
      expect(samePort).toEqual({ code: 1, output: `error: PORT and DEMO_PORT are both ${collectorPort}: give them different ports\n` });
    } finally {
      await taken.release();
    }
  });
});
