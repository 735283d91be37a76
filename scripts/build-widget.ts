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
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type BuildOptions, build, type Metafile, type Plugin } from 'esbuild';
import ts from 'typescript';
import { rewriteDeclarationSpecifiers } from './declarations.ts';
import { privateNames } from './private-names.ts';
import { ROOT } from './wrangler.ts';

export const WIDGET_DIST = join(ROOT, 'dist', 'widget');
const entry = join(ROOT, 'widget', 'index.ts');
/** White space CSS does not need: runs collapsed, none around punctuation, no last semicolon. */
const minifyCss = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}:;,>])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
/** Line breaks and indentation in markup render as one space, so they are sent as one. */
const minifyHtml = (text: string) => text.replace(/\s*\n\s*/g, ' ');

/**
 * esbuild minifies code, not the text of Lit's css`…` and html`…` templates: this minifies the
 * literal parts of those templates, found with the TypeScript parser so that the `${…}`
 * expressions between them are left as they are.
 */
export function minifyTemplates(source: string): string {
  const file = ts.createSourceFile('widget.ts', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'css' || node.tag.text === 'html')) {
      const minify = node.tag.text === 'css' ? minifyCss : minifyHtml;
      const { template } = node;
      const literals = ts.isNoSubstitutionTemplateLiteral(template) ? [template] : [template.head, ...template.templateSpans.map((s) => s.literal)];
      for (const literal of literals) {
        // Between the opening ` or } and the closing ` or ${.
        const start = literal.getStart(file) + 1;
        const end = literal.getEnd() - (ts.isTemplateHead(literal) || ts.isTemplateMiddle(literal) ? 2 : 1);
        edits.push({ start, end, text: minify(source.slice(start, end)) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  edits.sort((a, b) => a.start - b.start);
  return edits.reduceRight((out, { start, end, text }) => out.slice(0, start) + text + out.slice(end), source);
}

const templates: Plugin = {
  name: 'minify-templates',
  setup(b) {
    b.onLoad({ filter: /[\\/]widget[\\/].*\.ts$/ }, ({ path }) => ({ loader: 'ts', contents: minifyTemplates(readFileSync(path, 'utf8')) }));
  },
};

const common: BuildOptions & { metafile: true } = {
  bundle: true,
  minify: true,
  target: 'es2022',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [templates],
};

export async function buildWidget(options: { types?: boolean; outDir?: string } = {}): Promise<{ esm: Metafile; iife: Metafile }> {
  const out = options.outDir ?? WIDGET_DIST;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  // Private members get short names, as local variables do.
  const shortened = privateNames(ROOT, ['widget', 'shared']).map((name) => name.replaceAll('$', '\\$'));
  const mangleProps = new RegExp(`^(?:${shortened.join('|')})$`);
  const [esm, iife] = await Promise.all([
    build({
      ...common,
      mangleProps,
      entryPoints: { 'rag-feedback': entry },
      format: 'esm',
      // Module scripts are always read as UTF-8, so non-ASCII strings (the zh-CN UI) need no \u escapes.
      // The classic script keeps them: a page in a legacy encoding would read it in that one.
      charset: 'utf8',
      splitting: true,
      outdir: out,
      chunkNames: 'chunks/[name]-[hash]',
    }),
    build({
      ...common,
      mangleProps,
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
    rewriteDeclarationSpecifiers(join(out, 'types'));
    execFileSync(bin('cem'), ['analyze', '--config', 'widget/custom-elements-manifest.config.mjs', '--outdir', relative(ROOT, out), '--quiet'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }
  return { esm: esm.metafile!, iife: iife.metafile! };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildWidget();
  console.log(`widget built in ${WIDGET_DIST}`);
}
