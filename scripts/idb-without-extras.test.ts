import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { withoutExtras } from './idb-without-extras.ts';

const idbModule = () => readFileSync(join(createRequire(import.meta.url).resolve('idb/package.json'), '..', 'build', 'index.js'), 'utf8');

describe("idb's module in the widget's bundles", () => {
  it('keeps everything but the database shortcuts and the async iterators, and still parses and exports openDB', async () => {
    const source = idbModule();
    const trimmed = withoutExtras(source);
    for (const extra of ['Symbol.asyncIterator', 'getAllKeys', 'FromIndex']) {
      expect(source).toContain(extra);
      expect(trimmed).not.toContain(extra);
    }
    expect(trimmed).toContain('function openDB(');
    expect(trimmed).toContain("prop === 'store'"); // a transaction's store, which the outbox uses
    expect(trimmed.length).toBeLessThan(source.length);
    expect(trimmed.length).toBeGreaterThan(source.length / 2);
    const { code } = await transform(trimmed, { format: 'esm', minify: true });
    expect(code).toMatch(/export\{.*openDB/);
  });

  it('fails the build when idb no longer holds them where expected, rather than cut something else', () => {
    expect(() => withoutExtras('export { deleteDB, openDB, unwrap, wrap };\nconst x = 1;')).toThrow(/idb's module is not as the widget build expects/);
    const moved = idbModule().replace('Symbol.asyncIterator', 'Symbol.iterator');
    expect(() => withoutExtras(moved)).toThrow(/not as the widget build expects/);
    // A third extra installed there (a new version's) might be one the outbox needs: not cut unseen.
    const third = idbModule().replace('const cachedMethods = {};', 'const cachedMethods = {};\nreplaceTraps((oldTraps) => oldTraps);');
    expect(() => withoutExtras(third)).toThrow(/not as the widget build expects/);
  });
});
