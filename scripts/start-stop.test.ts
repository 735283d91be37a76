import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { StartedSoFar } from './start-stop.ts';
import { ROOT } from './wrangler.ts';

/** A server and a demo that record, in order, what was done to them. */
function fakes(closeFails = false) {
  const done: string[] = [];
  const server = {
    async stop() {
      done.push('server stopped');
    },
  };
  const demo = {
    async close() {
      // A flush takes a while: a stop started alongside would finish first.
      await new Promise((r) => setTimeout(r, 20));
      done.push('demo closed');
      if (closeFails) throw new Error('flush failed');
    },
  };
  return { done, server, demo };
}

describe('StartedSoFar', () => {
  it('stops the collector only once the demo has sent its traces', async () => {
    const { done, server, demo } = fakes();
    const started = new StartedSoFar();
    await started.start(
      async () => server,
      (s) => s.stop(),
    );
    await started.start(
      async () => demo,
      (d) => d.close(),
    );
    await started.stopAll();
    expect(done).toEqual(['demo closed', 'server stopped']);
  });

  it('still stops the collector when the demo fails to close, and says so after', async () => {
    const { done, server, demo } = fakes(true);
    const started = new StartedSoFar();
    await started.start(
      async () => server,
      (s) => s.stop(),
    );
    await started.start(
      async () => demo,
      (d) => d.close(),
    );
    await expect(started.stopAll()).rejects.toThrow('flush failed');
    expect(done).toEqual(['demo closed', 'server stopped']);
  });

  it('stops the collector when the demo fails to start (its port taken), before the failure goes on', async () => {
    const { done, server } = fakes();
    const started = new StartedSoFar();
    await started.start(
      async () => server,
      (s) => s.stop(),
    );
    const demo = started.start(
      () => Promise.reject(new Error('listen EADDRINUSE: address already in use 127.0.0.1:5173')),
      async () => void done.push('demo closed'),
    );
    await expect(demo).rejects.toThrow(/EADDRINUSE/);
    await started.stopAll();
    expect(done).toEqual(['server stopped']);
  });

  it('cuts short a start under way and waits for it to have stopped what it spawned; nothing starts after', async () => {
    const done: string[] = [];
    const started = new StartedSoFar();
    const starting = started.start(
      (signal) =>
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () =>
            setTimeout(() => {
              done.push('start given up, its child stopped');
              reject(signal.reason);
            }, 20),
          ),
        ),
      async () => void done.push('stopped'),
    );
    starting.catch(() => undefined);
    await started.stopAll();
    expect(done).toEqual(['start given up, its child stopped']);
    await expect(starting).rejects.toThrow();
    let ran = false;
    await expect(
      started.start(
        async () => (ran = true),
        async () => undefined,
      ),
    ).rejects.toThrow();
    expect(ran).toBe(false);
  });

  it('stops a start that ends all the same, ignoring the signal (the demo), once it has started', async () => {
    const { done, demo } = fakes();
    const started = new StartedSoFar();
    const starting = started.start(
      () => new Promise<typeof demo>((r) => setTimeout(() => r(demo), 20)),
      (d) => d.close(),
    );
    await started.stopAll();
    expect(await starting).toBe(demo);
    expect(done).toEqual(['demo closed']);
  });
});

/** What runs on this machine: pid, parent, process group, state (Z: a zombie) and command line. */
function processes() {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .flatMap((line) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
      return m ? [{ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), stat: m[4]!, args: m[5]! }] : [];
    });
}

interface Wrangler {
  pgid: number;
  port: number;
  persistTo: string;
}

/** The `wrangler dev` that process `parent` spawned, read from its command line, once it has. */
function wranglerOf(parent: number): Wrangler | undefined {
  const found = processes().find((p) => p.ppid === parent && / dev --ip 127\.0\.0\.1 --port \d+/.test(p.args));
  if (!found) return undefined;
  return { pgid: found.pgid, port: Number(/--port (\d+)/.exec(found.args)![1]), persistTo: /--persist-to (\S+)/.exec(found.args)![1]! };
}

const groupRuns = (pgid: number) => processes().some((p) => p.pgid === pgid && !p.stat.startsWith('Z'));

const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * start-stop.fixture.ts in a process of its own, as `npm start` runs: `interrupt()` sends it the
 * SIGINT a terminal's Ctrl-C does (to it, not to wrangler's group), once `when` holds; it answers
 * its exit code, then that wrangler, its workerd children and its state are gone and its port free.
 */
async function interruptStart(demoStartMs: number, when: (output: string, wrangler: Wrangler | undefined) => Promise<boolean>) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'start-stop.fixture.ts')], {
    cwd: ROOT,
    env: { ...process.env, DEMO_START_MS: String(demoStartMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  let wrangler: Wrangler | undefined;
  try {
    await vi.waitFor(
      async () => {
        wrangler ??= wranglerOf(child.pid!);
        expect(await when(output, wrangler)).toBe(true);
      },
      { timeout: 45_000, interval: 20 },
    );
    const outputWhenInterrupted = output;
    child.kill('SIGINT');
    const code = await exited;
    // Stopped before it exited: only its last SIGKILL may still be on its way.
    await vi.waitFor(() => expect(groupRuns(wrangler!.pgid)).toBe(false), { timeout: 2_000 });
    expect(await listens(wrangler!.port)).toBe(false);
    expect(existsSync(wrangler!.persistTo)).toBe(false);
    return { code, outputWhenInterrupted, output };
  } finally {
    // What a failed test leaves: the fixture and the wrangler group it spawned.
    child.kill('SIGKILL');
    if (wrangler && groupRuns(wrangler.pgid)) process.kill(-wrangler.pgid, 'SIGKILL');
  }
}

describe('Ctrl-C on a start (real wrangler)', { timeout: 60_000 }, () => {
  it('stops wrangler spawned but not yet answering, and exits 130', async () => {
    const { code, outputWhenInterrupted } = await interruptStart(0, async (_, wrangler) => wrangler !== undefined);
    expect(outputWhenInterrupted).not.toContain('collector up');
    expect(code).toBe(130);
  });

  it('stops wrangler that listens, whether or not its health check has answered yet, and exits 130', async () => {
    const { code } = await interruptStart(2_000, async (_, wrangler) => wrangler !== undefined && (await listens(wrangler.port)));
    expect(code).toBe(130);
  });

  it('stops the demo still starting once it has, then the collector, and exits 130', async () => {
    const { code, outputWhenInterrupted, output } = await interruptStart(2_000, async (out) => out.includes('collector up'));
    expect(outputWhenInterrupted).not.toContain('all started');
    expect(output).toContain('demo closed, the collector answering');
    expect(code).toBe(130);
  });

  it('once all has started, closes the demo while the collector still answers, then stops it, and exits 0', async () => {
    const { code, output } = await interruptStart(0, async (out) => out.includes('all started'));
    expect(output).toContain('demo closed, the collector answering');
    expect(code).toBe(0);
  });
});
