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
import { join, relative } from 'node:path';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { ROOT } from './wrangler.ts';

interface Declaration {
  members?: { name: string; privacy?: string }[];
  attributes?: { fieldName?: string }[];
  events?: { name: string }[];
}

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

export async function buildWidget(options: { types?: boolean; outDir?: string } = {}): Promise<{ esm: Metafile; iife: Metafile }> {
  const out = options.outDir ?? WIDGET_DIST;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const [esm, iife] = await Promise.all([
    build({
      ...common,
      entryPoints: { 'rag-feedback': entry },
      format: 'esm',
      splitting: true,
      outdir: out,
      chunkNames: 'chunks/[name]-[hash]',
    }),
    build({
      ...common,
      entryPoints: [entry],
      format: 'iife',
      globalName: '__ragFeedback',
      footer: { js: 'window.RagFeedback=__ragFeedback.RagFeedback;' },
      outfile: join(out, 'rag-feedback.iife.js'),
    }),
  ]);
  if (options.types !== false) {
    const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
    execFileSync(bin('tsc'), ['-p', 'widget/tsconfig.build.json', '--outDir', join(out, 'types')], { cwd: ROOT, stdio: 'inherit' });
    // Declarations keep the sources' `.ts` specifiers; `.js` resolves to the `.d.ts` for every consumer.
    for (const file of readdirSync(join(out, 'types'), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.d.ts')) continue;
      const path = join(out, 'types', file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
    }
    execFileSync(bin('cem'), ['analyze', '--config', 'widget/custom-elements-manifest.config.mjs', '--outdir', relative(ROOT, out), '--quiet'], { cwd: ROOT, stdio: 'inherit' });
    // The analyzer reads `static properties` loosely: it lists internal state (protected fields) as
    // attributes, and the generic `emit(type)` helper as an event named "type". Keep the public API.
    const manifest = join(out, 'custom-elements.json');
    const json = JSON.parse(readFileSync(manifest, 'utf8')) as { modules: { declarations?: Declaration[] }[] };
    for (const d of json.modules.flatMap((m) => m.declarations ?? [])) {
      const isPublic = (name?: string) => (d.members?.find((m) => m.name === name)?.privacy ?? 'public') === 'public';
      d.attributes = d.attributes?.filter((a) => isPublic(a.fieldName));
      d.events = d.events?.filter((e) => e.name !== 'type');
    }
    writeFileSync(manifest, JSON.stringify(json, null, 2));
  }
  return { esm: esm.metafile!, iife: iife.metafile! };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildWidget();
  console.log(`widget built in ${WIDGET_DIST}`);
}
