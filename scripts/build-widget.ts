/**
 * Builds the widget into dist/widget/:
 *   rag-feedback.js         ES module (import it, or <script type="module">), with
 *   chunks/                 the parts it loads after first render (popover, outbox, web-vitals)
 *   rag-feedback.iife.js    one classic script for <script src> users; sets window.RagFeedback
 *   types/                  type declarations
 *   custom-elements.json    the custom-elements manifest
 * and returns the bundles' metafiles, which the size benchmark reads.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { ROOT } from './wrangler.ts';

export const WIDGET_DIST = join(ROOT, 'dist', 'widget');
const entry = join(ROOT, 'widget', 'index.ts');
/** esbuild minifies code, not the CSS inside css`…` templates: collapse its white space. */
const minifyCss: Plugin = {
  name: 'minify-css-templates',
  setup(b) {
    b.onLoad({ filter: /\.styles\.ts$/ }, ({ path }) => ({
      loader: 'ts',
      contents: readFileSync(path, 'utf8').replace(/css`([^`]*)`/g, (_, body: string) =>
        `css\`${body.replace(/\s+/g, ' ').replace(/\s*([{}:;,>])\s*/g, '$1').replace(/;}/g, '}').trim()}\``,
      ),
    }));
  },
};

const common: BuildOptions & { metafile: true } = { bundle: true, minify: true, target: 'es2022', metafile: true, legalComments: 'none', logLevel: 'warning', plugins: [minifyCss] };

export async function buildWidget(options: { types?: boolean } = {}): Promise<{ esm: Metafile; iife: Metafile }> {
  rmSync(WIDGET_DIST, { recursive: true, force: true });
  mkdirSync(WIDGET_DIST, { recursive: true });
  const [esm, iife] = await Promise.all([
    build({
      ...common,
      entryPoints: { 'rag-feedback': entry },
      format: 'esm',
      splitting: true,
      outdir: WIDGET_DIST,
      chunkNames: 'chunks/[name]-[hash]',
    }),
    build({
      ...common,
      entryPoints: [entry],
      format: 'iife',
      globalName: '__ragFeedback',
      footer: { js: 'window.RagFeedback=__ragFeedback.RagFeedback;' },
      outfile: join(WIDGET_DIST, 'rag-feedback.iife.js'),
    }),
  ]);
  if (options.types !== false) {
    const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
    execFileSync(bin('tsc'), ['-p', 'widget/tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    // Declarations keep the sources' `.ts` specifiers; `.js` resolves to the `.d.ts` for every consumer.
    for (const file of readdirSync(join(WIDGET_DIST, 'types'), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.d.ts')) continue;
      const path = join(WIDGET_DIST, 'types', file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
    }
    execFileSync(bin('cem'), ['analyze', '--globs', 'widget/rag-feedback.component.ts', '--outdir', 'dist/widget', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  }
  return { esm: esm.metafile!, iife: iife.metafile! };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildWidget();
  console.log(`widget built in ${WIDGET_DIST}`);
}
