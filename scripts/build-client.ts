/**
 * Builds the backend client into dist/client/, a package a backend installs on its own
 * (`npm install path/to/dist/client`, or the tarball `npm pack dist/client` makes):
 *   index.js                  createTraceClient, createReranker
 *   transformers-embedder.js  createTransformersEmbedder (needs @xenova/transformers, a peer)
 *   rephrase.js               confirmRephrases
 *   types/                    type declarations
 *   package.json              "@rag-feedback/client", plain JavaScript for Node and Workers
 * Without the product's other dependencies (the collector's, the widget's, the tests'), so
 * installing it pulls in nothing a backend does not run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { reached } from './build-imports.ts';
import { failInOneLine, parseFlags } from './cli.ts';
import { rewriteDeclarationSpecifiers } from './declarations.ts';
import { ROOT } from './wrangler.ts';

export const CLIENT_DIST = join(ROOT, 'dist', 'client');
export const CLIENT_PACKAGE = '@rag-feedback/client';
const ENTRIES = ['index', 'transformers-embedder', 'rephrase'] as const;

const rootPackage = () => JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };

/**
 * Node built-ins an entry may import, as the only one for Node alone: transformers-embedder.js
 * reads a model's config.json from disk. Any other entry reaching one would build and then fail
 * in browsers and Workers.
 */
const NODE_ONLY: Partial<Record<string, readonly string[]>> = { 'transformers-embedder': ['node:fs'] };

/** The Node built-ins each entry of a build reaches (through its chunks too) but may not import. */
function forbiddenNodeImports(metafile: Metafile): string[] {
  const problems: string[] = [];
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
    if (entryPoint === undefined) continue;
    const name = basename(output, '.js');
    for (const path of reached(metafile, [output]).external)
      if (path.startsWith('node:') && !NODE_ONLY[name]?.includes(path))
        problems.push(`${name}.js imports ${path} (from ${entryPoint}'s modules), which browsers and Workers do not have`);
  }
  return problems;
}

/** Bundles the entries (name: source file) into outDir, which it replaces, refusing (and leaving outDir as it was) an entry that reaches a Node built-in not its own. */
export async function bundleClient(entries: Record<string, string>, outDir: string): Promise<void> {
  const { metafile, outputFiles } = await build({
    entryPoints: entries,
    bundle: true,
    splitting: true,
    format: 'esm',
    // Node, Workers and bundlers alike: no Node built-ins (but those NODE_ONLY allows an entry),
    // no browser globals beyond fetch.
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    external: ['@xenova/transformers', 'valibot', ...Object.values(NODE_ONLY).flatMap((m) => m ?? [])],
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    // Written once checked: a refused build leaves no file a backend could install.
    write: false,
  });
  const problems = forbiddenNodeImports(metafile);
  if (problems.length) throw new Error(`The client build is for browsers and Workers too: ${problems.join('; ')}`);
  // Only now is the build before it replaced: a refused one leaves it as it was.
  rmSync(outDir, { recursive: true, force: true });
  for (const file of outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
}

export async function buildClient(outDir = CLIENT_DIST): Promise<void> {
  await bundleClient(Object.fromEntries(ENTRIES.map((name) => [name, join(ROOT, 'client', `${name}.ts`)])), outDir);
  const types = join(outDir, 'types');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'client/tsconfig.build.json', '--outDir', types], { cwd: ROOT, stdio: 'inherit' });
  rewriteDeclarationSpecifiers(types);
  const root = rootPackage();
  const entry = (name: (typeof ENTRIES)[number]) => ({ types: `./types/client/${name}.d.ts`, default: `./${name}.js` });
  const pkg = {
    name: CLIENT_PACKAGE,
    version: root.version,
    description: 'Send RAG traces to the rag-feedback collector, and rank with the model its loop promoted.',
    type: 'module',
    exports: { '.': entry('index'), './transformers-embedder': entry('transformers-embedder'), './rephrase': entry('rephrase') },
    engines: { node: '>=20' },
    // The trace's types are valibot's inferences of the collector's schema.
    dependencies: { valibot: root.dependencies.valibot },
    peerDependencies: { '@xenova/transformers': root.dependencies['@xenova/transformers'] },
    peerDependenciesMeta: { '@xenova/transformers': { optional: true } },
  };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  failInOneLine();
  parseFlags({}, 'npm run build:client');
  await buildClient();
  console.log(`client built in ${CLIENT_DIST}: npm install ${CLIENT_DIST}`);
}
