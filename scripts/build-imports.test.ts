import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { isStatic, reached } from './build-imports.ts';

type Imports = Metafile['outputs'][string]['imports'];
const output = (imports: Imports) => ({ bytes: 1, inputs: {}, imports, exports: [] });

// main imports a chunk at once and a page when called; the page imports charts, and the chunk a built-in; a chunk imports main back.
const metafile: Metafile = {
  inputs: {},
  outputs: {
    'main.js': output([
      { path: 'chunk.js', kind: 'import-statement' },
      { path: 'page.js', kind: 'dynamic-import' },
    ]),
    'chunk.js': output([
      { path: 'node:fs', kind: 'import-statement', external: true },
      { path: 'main.js', kind: 'import-statement' },
    ]),
    'page.js': output([{ path: 'charts.js', kind: 'import-statement' }]),
    'charts.js': output([{ path: 'node:os', kind: 'dynamic-import', external: true }]),
  },
};

describe('reached', () => {
  it('follows every import by default, through a cycle, and names the externals met on the way', () => {
    expect(reached(metafile, ['main.js'])).toEqual({
      files: new Set(['main.js', 'chunk.js', 'page.js', 'charts.js']),
      external: new Set(['node:fs', 'node:os']),
    });
  });

  it('follows only the static imports when asked (what loading a file fetches), from each output given', () => {
    expect(reached(metafile, ['main.js'], isStatic).files).toEqual(new Set(['main.js', 'chunk.js']));
    expect(reached(metafile, ['main.js', 'page.js'], isStatic).files).toEqual(new Set(['main.js', 'chunk.js', 'page.js', 'charts.js']));
    // charts.js imports node:os only when called: not followed, not met.
    expect(reached(metafile, ['main.js', 'page.js'], isStatic).external).toEqual(new Set(['node:fs']));
  });
});
