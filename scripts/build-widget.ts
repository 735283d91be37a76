/**
 * Builds the widget into dist/widget/:
 *   rag-feedback.js         ES module (import it, or <script type="module">), with lit and all it runs first
 *   chunks/                 the part it loads after first render (popover, outbox, web-vitals)
 *   rag-feedback.iife.js    one classic script for <script src> users; sets window.RagFeedback
 *   types/                  type declarations
 *   custom-elements.json    the custom-elements manifest
 * and returns the bundles' metafiles, which the size benchmark reads.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { type BuildOptions, build, type Metafile, type OutputFile, type Plugin } from 'esbuild';
import { rolldown } from 'rolldown';
import { LAST_MINIFY, lastMinify, mangling, ownSources, TARGET } from './build-shared.ts';
import { failInOneLine, parseFlags } from './cli.ts';
import { rewriteDeclarationSpecifiers } from './declarations.ts';
import { idbWithoutExtras } from './idb-without-extras.ts';
import { litShortMessages } from './lit-short-messages.ts';
import { litWithoutHooks } from './lit-without-hooks.ts';
import { minifiedTemplates } from './minify-templates.ts';
import { privateNames } from './private-names.ts';
import { webVitalsPrivateNames, webVitalsWithoutSoftNavs } from './web-vitals-without-soft-navs.ts';
import { ROOT } from './wrangler.ts';

export const WIDGET_DIST = join(ROOT, 'dist', 'widget');
const entry = join(ROOT, 'widget', 'index.ts');
/** The single-file classic script. */
const IIFE = 'rag-feedback.iife.js';
/** U+FEFF, written first: the script is then read as UTF-8 whatever its server or page says. */
const BOM = '\uFEFF';
const templates = minifiedTemplates(/[\\/]widget[\\/].*\.ts$/);

/**
 * The classic script is one file: its background part is there from the start, so it is imported
 * statically. A dynamic import() there would make esbuild wrap every module it reaches (lit too) in
 * a function that runs it on first use, and that costs bytes in each. The loader still resolves
 * asynchronously, as the import did.
 */
const staticBackground: Plugin = {
  name: 'static-background',
  setup(b) {
    b.onLoad({ filter: /[\\/]widget[\\/]load-background\.ts$/ }, ({ path }) => ({
      loader: 'ts',
      resolveDir: dirname(path),
      contents: [
        "import * as background from './background.ts';",
        "import { retrying } from './retrying.ts';",
        'export const loadBackground = retrying(() => Promise.resolve().then(() => background));',
      ].join('\n'),
    }));
  },
};

const common: BuildOptions & { metafile: true } = {
  bundle: true,
  minify: true,
  target: TARGET,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [templates, idbWithoutExtras, webVitalsWithoutSoftNavs, litShortMessages, litWithoutHooks],
};

/**
 * esbuild puts the code that the entry and the background chunk share (lit, small helpers) in a
 * chunk of its own, always: one more request on first load, and ~0.4 KB (brotli) more than the same
 * code in the entry. Rolldown links esbuild's output again (already bundled, minified files that
 * import each other by relative paths) and keeps what the entry loads anyway in the entry; the
 * background chunk imports it from there. So the entry also exports a few minified names for the
 * background chunk: not part of the API, and not in its type declarations.
 * Returns the metafile of the files written, with esbuild's sources as their inputs.
 */
async function linkChunks(files: OutputFile[], split: Metafile, out: string): Promise<Metafile> {
  const code = new Map(files.map((f) => [f.path, f.text]));
  const bundle = await rolldown({
    input: join(out, 'rag-feedback.js'),
    preserveEntrySignatures: 'allow-extension',
    logLevel: 'warn',
    plugins: [
      {
        name: 'esbuild-output',
        resolveId: (source, importer) => (importer ? resolve(dirname(importer), source) : source),
        load: (id) => code.get(id),
      },
    ],
  });
  const { output } = await bundle.write({
    dir: out,
    format: 'es',
    minify: LAST_MINIFY,
    // No /* @__PURE__ */ marks: nothing bundles the files again.
    comments: false,
    entryFileNames: '[name].js',
    // The name esbuild gave the chunk, less esbuild's hash of it before linking.
    chunkFileNames: ({ name }) => `chunks/${name.replace(/-\w+$/, '')}-[hash].js`,
  });
  await bundle.close();
  const path = (file: string) => relative(process.cwd(), join(out, file));
  const outputs: Metafile['outputs'] = {};
  for (const chunk of output) {
    if (chunk.type !== 'chunk') continue;
    // Rolldown's own helpers, if it adds any, have no esbuild output behind them.
    const sources = chunk.moduleIds.flatMap((id) => split.outputs[relative(process.cwd(), id)] ?? []);
    outputs[path(chunk.fileName)] = {
      bytes: Buffer.byteLength(chunk.code),
      inputs: Object.assign({}, ...sources.map((s) => s.inputs)),
      imports: [
        ...chunk.imports.map((f) => ({ path: path(f), kind: 'import-statement' as const })),
        ...chunk.dynamicImports.map((f) => ({ path: path(f), kind: 'dynamic-import' as const })),
      ],
      exports: chunk.exports,
      ...(chunk.isEntry ? { entryPoint: relative(process.cwd(), entry) } : {}),
    };
  }
  return { inputs: split.inputs, outputs };
}

/** The ES module's build, into `out`: an entry and the chunk it loads after first render. */
const moduleBuild = (out: string): BuildOptions & { metafile: true } => ({
  ...common,
  entryPoints: { 'rag-feedback': entry },
  format: 'esm',
  // Module scripts are always read as UTF-8, so non-ASCII text (the zh-CN UI) needs no \u escapes.
  charset: 'utf8',
  splitting: true,
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  write: false,
});

/**
 * The widget's own source files its bundle holds, as its build reads them (the single-file script
 * holds the same): the code whose private names it may shorten.
 */
export const bundledSources = async (): Promise<string[]> => ownSources((await build(moduleBuild(WIDGET_DIST))).metafile);

export async function buildWidget(options: { types?: boolean; outDir?: string } = {}): Promise<{ esm: Metafile; iife: Metafile }> {
  const out = resolve(options.outDir ?? WIDGET_DIST);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // Private members, and members of its classes the page does not reach, get short names, as local variables do.
  const mangleProps = mangling([...privateNames(ROOT, await bundledSources(), entry), ...webVitalsPrivateNames(ROOT)]);
  const [esm, iife] = await Promise.all([
    build({ ...moduleBuild(out), mangleProps }),
    build({
      ...common,
      mangleProps,
      // The page-wide API as window.RagFeedback, and the module's exports as window.__ragFeedback,
      // set from an entry of its own: esbuild's globalName would add its CommonJS export helpers.
      // The script loaded twice: its API is the first copy's already (see index.ts), and the exports
      // stay the first copy's, whose class is the element's.
      stdin: {
        contents: "import * as widget from './index.ts'; window.__ragFeedback ??= widget; window.RagFeedback = widget.RagFeedback;",
        resolveDir: dirname(entry),
        sourcefile: 'index.iife.ts',
        loader: 'ts',
      },
      format: 'iife',
      // Strict mode, as TypeScript's strict compiles the modules: esbuild marks a file entry so, not stdin.
      banner: { js: '"use strict";' },
      // A classic script is read in the charset its server names, else the page's. A byte order
      // mark overrides both, so UTF-8 holds on any server and page; esbuild's ASCII escapes would
      // not cover regular expression literals (the e-mail pattern's Latin letters) and cost more.
      charset: 'utf8',
      outfile: join(out, IIFE),
      plugins: [staticBackground, templates, idbWithoutExtras, webVitalsWithoutSoftNavs, litShortMessages, litWithoutHooks],
    }),
  ]);
  const iifePath = join(out, IIFE);
  writeFileSync(iifePath, `${BOM}${lastMinify(IIFE, readFileSync(iifePath, 'utf8'), false)}`);
  const linked = await linkChunks(esm.outputFiles!, esm.metafile!, out);
  if (options.types !== false) {
    const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
    execFileSync(bin('tsc'), ['-p', 'widget/tsconfig.build.json', '--outDir', join(out, 'types')], { cwd: ROOT, stdio: 'inherit' });
    rewriteDeclarationSpecifiers(join(out, 'types'));
    execFileSync(bin('cem'), ['analyze', '--config', 'widget/custom-elements-manifest.config.mjs', '--outdir', relative(ROOT, out), '--quiet'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
  return { esm: linked, iife: iife.metafile! };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  failInOneLine();
  parseFlags({}, 'npm run build:widget');
  await buildWidget();
  console.log(`widget built in ${WIDGET_DIST}`);
}
