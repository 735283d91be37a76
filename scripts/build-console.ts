/**
 * Builds the admin console into console/build/admin/, which the Worker serves at /admin from
 * its static assets (wrangler.toml [assets]):
 *   index.html       the one page (every /admin path gets it; the console routes by URL)
 *   console.css      the page's colour tokens for both themes
 *   console.js       the frame, sign-in and the 401 page
 *   chunks/          each page's code, loaded when the page is first opened
 * and returns the bundle's metafile, for size figures.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { lastMinify, mangling, ownSources, TARGET } from './build-shared.ts';
import { failInOneLine, parseFlags } from './cli.ts';
import { minifiedTemplates } from './minify-templates.ts';
import { privateNames } from './private-names.ts';
import { uplotWithoutUnusedParts } from './uplot-unused.ts';
import { refuseMistypedVars, tomlVars } from './worker-vars-check.ts';
import { ROOT } from './wrangler.ts';

export const CONSOLE_DIST = join(ROOT, 'console', 'build', 'admin');
const SOURCE = join(ROOT, 'console');

/** Lit's css`…` and html`…` literals minified as the widget's are. */
const templates = minifiedTemplates(/[\\/]console[\\/].*\.ts$/);

export async function buildConsole(options: { outDir?: string } = {}): Promise<Metafile> {
  const out = resolve(ROOT, options.outDir ?? CONSOLE_DIST);
  // Built over the folder, never removing it first: a `wrangler dev` serving it (npm start) loses
  // track of a folder that is removed and made again, and answers 404 until it restarts.
  mkdirSync(out, { recursive: true });
  const settings = {
    absWorkingDir: ROOT,
    entryPoints: { console: join(SOURCE, 'main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    target: TARGET,
    charset: 'utf8',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    outdir: out,
    write: false,
    chunkNames: 'chunks/[name]-[hash]',
    // The charting library's stylesheet goes into the chart's shadow root as text.
    loader: { '.css': 'text' },
    plugins: [templates, uplotWithoutUnusedParts],
  } satisfies BuildOptions;
  // Private members get short names, as the widget's do: those of the files the bundle holds.
  const shortened = privateNames(ROOT, ownSources((await build(settings)).metafile, ROOT));
  const result = await build({ ...settings, mangleProps: mangling(shortened) });
  const files = [
    ...result.outputFiles.map((f) => ({ path: f.path, contents: f.path.endsWith('.js') ? Buffer.from(lastMinify(f.path, f.text, true)) : f.contents })),
    ...['index.html', 'console.css'].map((name) => ({ path: join(out, name), contents: readFileSync(join(SOURCE, name)) })),
  ];
  // A file is written only when it changed: a `wrangler dev` serving the folder reloads its Worker
  // on every write, and requests in flight then fail ("restarted mid-request").
  for (const { path, contents } of files) {
    if (statSync(path, { throwIfNoEntry: false })?.isFile() && readFileSync(path).equals(contents)) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, contents);
  }
  // What an earlier build left and this one did not make (chunks under other hashes) goes.
  const made = new Set(files.map((f) => resolve(f.path)));
  // Another build beside this one (npm test's, npm start's) may remove the same file first.
  for (const f of readdirSync(out, { recursive: true, encoding: 'utf8' }).map((f) => join(out, f)))
    if (!made.has(f) && statSync(f, { throwIfNoEntry: false })?.isFile()) rmSync(f, { force: true });
  return result.metafile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  failInOneLine();
  parseFlags({}, 'npm run build:console');
  // `npm run deploy` builds the console first: a setting the Worker would read as its default stops it here.
  refuseMistypedVars(tomlVars(join(ROOT, 'wrangler.toml')), 'wrangler.toml [vars]');
  await buildConsole();
  console.log(`console built in ${CONSOLE_DIST}`);
}
