import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { copyMigratedD1, migrationsAppliedToMigratedD1 } from './local-collector.ts';
import { migrate, ROOT, startDev } from './wrangler.ts';

/** Runs `test` with a port held by a listener that accepts and never answers (as a stuck server would), and a state folder. */
async function onHeldPort(test: (port: number, persistTo: string) => Promise<void>): Promise<void> {
  const holder = createServer(() => {});
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as { port: number };
  const persistTo = mkdtempSync(join(tmpdir(), 'rf-taken-'));
  try {
    await test(port, persistTo);
  } finally {
    holder.close();
    rmSync(persistTo, { recursive: true, force: true });
  }
}

describe('wrangler dev on a port another process holds', () => {
  it('fails at once, saying so, instead of waiting on the other listener', { timeout: 60_000 }, () =>
    onHeldPort(async (port, persistTo) => {
      const started = Date.now();
      await expect(startDev({ port, persistTo, logLevel: 'warn' })).rejects.toThrow(`port ${port} is taken`);
      expect(Date.now() - started).toBeLessThan(30_000);
    }),
  );

  it("fails at once as npm start runs it too, wrangler's output on the terminal where it cannot be read", { timeout: 30_000 }, () =>
    onHeldPort(async (port, persistTo) => {
      const started = Date.now();
      // EADDRINUSE: the code `npm start` names the running start and PORT for.
      await expect(startDev({ port, persistTo, logLevel: 'warn', inherit: true })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(Date.now() - started).toBeLessThan(5_000);
    }),
  );
});

describe('wrangler dev interrupted while it starts', () => {
  it('is stopped, its port left free, and the start rejects with the reason given', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-interrupted-'));
    const interrupt = new AbortController();
    const start = startDev({ port, persistTo, logLevel: 'warn', signal: interrupt.signal });
    try {
      // Spawned by now, in its own process group, and far from answering.
      const reason = new Error('Ctrl-C');
      interrupt.abort(reason);
      await expect(start).rejects.toBe(reason);
      const listening = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      expect(listening).toBe(false);
      // Nor is any of its processes left (a zombie is only waiting for its parent's exit status).
      const left = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
        .split('\n')
        .filter((line) => line.includes(`--port ${port} `) && !line.trim().startsWith('Z'));
      expect(left).toEqual([]);
    } finally {
      // A start that went on regardless is stopped all the same.
      await start.then(
        (server) => server.stop(),
        () => undefined,
      );
      rmSync(persistTo, { recursive: true, force: true });
    }
  });
});

describe('migrate', () => {
  // A new D1 is migrated once per set of migrations, for every throwaway collector (local-collector.ts):
  // what migrate answered then is kept with it, rather than migrating another new D1 here.
  it('answers the migrations it applied: every one on a new D1, none the second time', { timeout: 120_000 }, () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-migrate-'));
    try {
      const all = readdirSync(join(ROOT, 'collector', 'migrations')).filter((f) => f.endsWith('.sql'));
      expect(migrationsAppliedToMigratedD1()).toEqual(all.sort());
      copyMigratedD1(persistTo);
      expect(migrate({ persistTo }, { quiet: true })).toEqual([]);
    } finally {
      rmSync(persistTo, { recursive: true, force: true });
    }
  });
});
