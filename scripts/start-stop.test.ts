import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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

/** The collector, then the demo, started as `npm start` starts them. */
async function bothStarted({ server, demo }: Pick<ReturnType<typeof fakes>, 'server' | 'demo'>): Promise<StartedSoFar> {
  const started = new StartedSoFar();
  await started.start(
    async () => server,
    (s) => s.stop(),
  );
  await started.start(
    async () => demo,
    (d) => d.close(),
  );
  return started;
}

describe('StartedSoFar', () => {
  it('stops the collector only once the demo has sent its traces', async () => {
    const { done, server, demo } = fakes();
    const started = await bothStarted({ server, demo });
    await started.stopAll();
    expect(done).toEqual(['demo closed', 'server stopped']);
  });

  it('still stops the collector when the demo fails to close, and says so after', async () => {
    const { done, server, demo } = fakes(true);
    const started = await bothStarted({ server, demo });
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
  /** wrangler's own process, the leader of its group. */
  pid: number;
  pgid: number;
  port: number;
  persistTo: string;
}

/** The `wrangler dev` that process `ancestor` or one of its descendants spawned, read from its command line, once it has. */
function wranglerOf(ancestor: number): Wrangler | undefined {
  const all = processes();
  const parentOf = new Map(all.map((p) => [p.pid, p.ppid]));
  const descends = (pid: number): boolean => pid === ancestor || (pid > 1 && parentOf.has(pid) && descends(parentOf.get(pid)!));
  const found = all.find((p) => / dev --ip 127\.0\.0\.1 --port \d+/.test(p.args) && descends(p.ppid));
  if (!found) return undefined;
  return { pid: found.pid, pgid: found.pgid, port: Number(/--port (\d+)/.exec(found.args)![1]), persistTo: /--persist-to (\S+)/.exec(found.args)![1]! };
}

/** The command lines of what still runs in group `pgid` (zombies are gone but for their parent's reading). */
const groupOf = (pgid: number) => processes().flatMap((p) => (p.pgid === pgid && !p.stat.startsWith('Z') ? [`${p.stat} ${p.args}`] : []));
const groupRuns = (pgid: number) => groupOf(pgid).length > 0;

const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** `npm start`'s command (package.json), run on the fixture instead of scripts/start.ts. */
const START_COMMAND = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.replace(
  'scripts/start.ts',
  'scripts/start-stop.fixture.ts',
);

/**
 * start-stop.fixture.ts run by `npm start`'s own command, in a shell as npm runs it, in a process
 * group of its own as a terminal runs a job; with `terminal`, on a terminal of its own (`script`
 * gives it one), which the fixture's wrangler writes to as `npm start`'s does, and typed into
 * through the child's stdin.
 */
function runStart(env: Record<string, string>, terminal = false) {
  expect(START_COMMAND).toContain('start-stop.fixture.ts');
  const [command, args] = terminal ? ['script', ['-qfec', START_COMMAND, '/dev/null']] : ['sh', ['-c', START_COMMAND]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}`, ...env, ...(terminal && { INHERIT: '1' }) },
    stdio: [terminal ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, output: () => output, exited };
}

/**
 * start-stop.fixture.ts run by `npm start`'s own command, in a process group of its own as a
 * terminal runs a job: once `when` holds, `interrupt` sends the whole group the SIGINT a terminal's
 * Ctrl-C does (not wrangler's group), or does what it is given instead; it answers the exit code, then that wrangler, its workerd
 * children and its state are gone and its port free. `demoBusyMs`: the demo's start holds the event
 * loop that long, as building its index over a corpus does.
 */
async function interruptStart(
  demoStartMs: number,
  when: (output: string, wrangler: Wrangler | undefined) => Promise<boolean>,
  demoBusyMs = 0,
  interrupt: (start: ChildProcess, wrangler: Wrangler) => void = (start) => process.kill(-start.pid!, 'SIGINT'),
  terminal = false,
) {
  const { child, output, exited } = runStart({ DEMO_START_MS: String(demoStartMs), DEMO_BUSY_MS: String(demoBusyMs) }, terminal);
  let wrangler: Wrangler | undefined;
  try {
    await vi.waitFor(
      async () => {
        wrangler ??= wranglerOf(child.pid!);
        expect(await when(output(), wrangler)).toBe(true);
      },
      { timeout: 45_000, interval: 20 },
    );
    const outputWhenInterrupted = output();
    interrupt(child, wrangler!);
    const code = await exited;
    // Stopped before it exited: only its last SIGKILL may still be on its way.
    await vi.waitFor(() => expect(groupOf(wrangler!.pgid)).toEqual([]), { timeout: 2_000 });
    expect(await listens(wrangler!.port)).toBe(false);
    expect(existsSync(wrangler!.persistTo)).toBe(false);
    return { code, outputWhenInterrupted, output: output() };
  } finally {
    // What a failed test leaves: the fixture's group and the wrangler group it spawned.
    if (groupRuns(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    if (wrangler && groupRuns(wrangler.pgid)) process.kill(-wrangler.pgid, 'SIGKILL');
  }
}

describe('Ctrl-C on a start, or its collector lost (real wrangler)', { timeout: 60_000 }, () => {
  it('exits 130 when the Ctrl-C comes during a command the start runs synchronously, which it ends too', async () => {
    const { child, output, exited } = runStart({ SYNC_STEP_S: '20' });
    try {
      // The command itself running, not only about to: the Ctrl-C must end it.
      await vi.waitFor(() => expect(processes().some((p) => p.pgid === child.pid && p.args === 'sleep 20')).toBe(true), { timeout: 20_000, interval: 20 });
      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(130);
      expect(output()).not.toContain('collector up');
    } finally {
      if (groupRuns(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    }
  });

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

  it('stops everything when the Ctrl-C comes while the demo holds the event loop as it starts', async () => {
    // A runner that relays the signal to a child of its own, and kills that child when it does not
    // answer at once, would leave wrangler running here.
    const { code, output } = await interruptStart(0, async (out) => out.includes('demo busy'), 1_500);
    expect(output).toContain('demo closed, the collector answering');
    // Heard once the loop is free, which may be after the start has ended: as if pressed then.
    expect([0, 130]).toContain(code);
  });

  it('stops the demo and what is left of the collector when wrangler exits on its own, and exits 1', async () => {
    // wrangler alone killed, as a crash would end it: its workerd children are left in its group.
    const { code, output } = await interruptStart(
      0,
      async (out) => out.includes('all started'),
      0,
      (_, wrangler) => process.kill(wrangler.pid, 'SIGKILL'),
    );
    expect(output).toContain('error: the collector exited (SIGKILL) on its own: stopping the rest');
    // The demo closes; wrangler's runtime may still answer until the group it was left in is stopped after.
    expect(output).toMatch(/demo closed, the collector (answering|gone)/);
    expect(code).toBe(1);
  });

  it('stops everything when only the process npm started is sent SIGTERM, as npm passes on a process manager stopping it', async () => {
    // A shell left between would die of it, leaving the start running without npm.
    const { code, output } = await interruptStart(
      0,
      async (out) => out.includes('all started'),
      0,
      (start) => process.kill(start.pid!, 'SIGTERM'),
    );
    expect(output).toContain('demo closed, the collector answering');
    expect(code).toBe(0);
  });

  it('stops everything in order on a Ctrl-C typed in the terminal wrangler writes to, and exits 0', async () => {
    // wrangler reading that terminal would put it in raw mode: Ctrl-C a key it exits on by itself, exit 1.
    const { code, output } = await interruptStart(
      0,
      async (out) => out.includes('all started'),
      0,
      (start) => start.stdin!.write('\x03'),
      true,
    );
    expect(output).not.toContain('on its own');
    expect(output).toContain('demo closed, the collector answering');
    expect(code).toBe(0);
  });

  it('once all has started, closes the demo while the collector still answers, then stops it, and exits 0', async () => {
    const { code, output } = await interruptStart(0, async (out) => out.includes('all started'));
    expect(output).toContain('demo closed, the collector answering');
    expect(code).toBe(0);
  });
});
