import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, ROOT, startDev } from './wrangler.ts';

describe('wrangler dev on a port another process holds', () => {
  it('fails at once, saying so, instead of waiting on the other listener', { timeout: 60_000 }, async () => {
    // A listener that accepts and never answers, as a stuck server would.
    const holder = createServer(() => {});
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-taken-'));
    try {
      const started = Date.now();
      await expect(startDev({ port, persistTo, logLevel: 'warn' })).rejects.toThrow(`port ${port} is taken`);
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      holder.close();
      rmSync(persistTo, { recursive: true, force: true });
    }
  });
});

describe('migrate', () => {
  it('answers the migrations it applied: every one on a new D1, none the second time', { timeout: 120_000 }, () => {
    const persistTo = mkdtempSync(join(tmpdir(), 'rf-migrate-'));
    try {
      const all = readdirSync(join(ROOT, 'collector', 'migrations')).filter((f) => f.endsWith('.sql'));
      expect(migrate({ persistTo }, { quiet: true })).toEqual(all.sort());
      expect(migrate({ persistTo }, { quiet: true })).toEqual([]);
    } finally {
      rmSync(persistTo, { recursive: true, force: true });
    }
  });
});
