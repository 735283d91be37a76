import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConsole, CONSOLE_DIST } from './build-console.ts';
import { ownSources } from './build-shared.ts';
import { startLocalCollector } from './local-collector.ts';
import { privateNames, usedAsProperty } from './private-names.ts';
import { ROOT } from './wrangler.ts';

describe('npm run build:console', () => {
  it('rebuilds under a running collector without taking the console away from it, and drops what the last build left', { timeout: 120_000 }, async () => {
    await buildConsole();
    const stale = join(CONSOLE_DIST, 'chunks', 'page-STALE.js');
    writeFileSync(stale, '');
    const collector = await startLocalCollector();
    const status = async () => [(await fetch(`${collector.url}/admin`)).status, (await fetch(`${collector.url}/admin/console.js`)).status];
    try {
      expect(await status()).toEqual([200, 200]);
      // As `npm test` or a second `npm start` does beside a running `npm start`. Whether wrangler dev
      // lost a folder taken away and made again depended on timing, so the test rebuilds three times.
      let seen: number[] = [];
      for (let build = 0; build < 3; build++) {
        await buildConsole();
        expect(existsSync(stale)).toBe(false);
        // wrangler dev takes a moment to see the files change; it must not lose them.
        for (let i = 0; i < 5; i++) {
          await new Promise((r) => setTimeout(r, 1_000));
          seen = await status();
        }
        expect(seen).toEqual([200, 200]);
      }
    } finally {
      await collector.stop();
    }
  });

  it('leaves a file the same build makes again untouched, so a collector serving the folder does not reload', async () => {
    await buildConsole();
    const files = readdirSync(CONSOLE_DIST, { recursive: true, encoding: 'utf8' })
      .map((f) => join(CONSOLE_DIST, f))
      .filter((f) => statSync(f).isFile());
    const written = () => files.map((f) => statSync(f).mtimeMs);
    const before = written();
    await new Promise((r) => setTimeout(r, 50));
    await buildConsole();
    expect(written()).toEqual(before);
  });

  it('shortens no private name that a bundled library uses as a property', { timeout: 60_000 }, async () => {
    const metafile = await buildConsole({ outDir: mkdtempSync(join(tmpdir(), 'rf-console-build-')) });
    const shortened = privateNames(ROOT, ownSources(metafile, ROOT));
    expect(shortened).toContain('wanted'); // RfConsole
    const libraries = Object.keys(metafile.inputs).filter((f) => f.includes('node_modules/'));
    expect(libraries.some((f) => f.includes('/lit-html/'))).toBe(true);
    expect(libraries.some((f) => f.includes('/uplot/'))).toBe(true);
    for (const file of libraries) expect(usedAsProperty(readFileSync(join(ROOT, file), 'utf8'), shortened), file).toEqual([]);
  });
});
