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
import { join } from 'node:path';
import { build } from 'esbuild';
import { failInOneLine, parseFlags } from './cli.ts';
import { rewriteDeclarationSpecifiers } from './declarations.ts';
import { ROOT } from './wrangler.ts';

export const CLIENT_DIST = join(ROOT, 'dist', 'client');
export const CLIENT_PACKAGE = '@rag-feedback/client';
const ENTRIES = ['index', 'transformers-embedder', 'rephrase'] as const;

const rootPackage = () => JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };

export async function buildClient(outDir = CLIENT_DIST): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: Object.fromEntries(ENTRIES.map((name) => [name, join(ROOT, 'client', `${name}.ts`)])),
    bundle: true,
    splitting: true,
    format: 'esm',
    // Node, Workers and bundlers alike: no Node built-ins, no browser globals beyond fetch; but
    // transformers-embedder.js, for Node only, reads a model's config.json from disk.
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    external: ['@xenova/transformers', 'valibot', 'node:fs'],
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  });
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
