import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildClient, bundleClient, CLIENT_PACKAGE } from './build-client.ts';
import { ROOT } from './wrangler.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A backend's project with the built client installed as its tarball would be (copied), and its dependency and Node types beside it. */
function backend(built: string) {
  const dir = mkdtempSync(join(tmpdir(), 'rf-backend-'));
  dirs.push(dir);
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@rag-feedback'), { recursive: true });
  mkdirSync(join(modules, '@types'));
  cpSync(built, join(modules, CLIENT_PACKAGE), { recursive: true });
  for (const dep of ['valibot', '@types/node', 'undici-types']) symlinkSync(join(ROOT, 'node_modules', dep), join(modules, dep));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'backend', type: 'module', private: true }));
  return dir;
}

describe('the client build', () => {
  it('makes a package a backend imports in plain Node and type-checks under strict NodeNext settings', { timeout: 120_000 }, async () => {
    const built = mkdtempSync(join(tmpdir(), 'rf-client-build-'));
    dirs.push(built);
    await buildClient(built);
    const dir = backend(built);

    // Plain Node, no TypeScript loader: the trace goes out, and the stand-in collector's answer comes back.
    const script = `
      import { createTraceClient } from '${CLIENT_PACKAGE}';
      import { confirmRephrases } from '${CLIENT_PACKAGE}/rephrase';
      const client = createTraceClient({ endpoint: 'http://collector.test', serverKey: 'rfs_x', fetch: async (r) =>
        Response.json({ accepted: 1, duplicate: 0, rejected: 0, results: (await r.json()).map((t, index) => ({ index, status: 'accepted', traceId: t.traceId })) }) });
      const trace = { traceId: 't1', query: 'q', retrievedChunks: [], answer: 'a', model: 'm', createdAt: Date.now() };
      const result = await client.logTrace(trace);
      // The schema the package carries refuses before sending.
      const { query, ...noQuery } = trace;
      const refused = await client.logTrace({ ...noQuery, traceId: 't2' });
      console.log(JSON.stringify({ result, refused, rephrase: typeof confirmRephrases }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      result: { traceId: 't1', status: 'accepted' },
      refused: { traceId: 't2', status: 'rejected', field: 'trace.query', reason: 'is required', fields: [{ field: 'trace.query', message: 'is required' }] },
      rephrase: 'function',
    });

    writeFileSync(
      join(dir, 'app.ts'),
      `import { createReranker, createTraceClient, type Embedder, type TraceInput, type TraceResult } from '${CLIENT_PACKAGE}';
const feedback = createTraceClient({ endpoint: 'http://127.0.0.1:8787', serverKey: 'rfs_x', timeoutMs: 5_000 });
const trace: TraceInput = { traceId: 't1', query: 'q', retrievedChunks: [], answer: 'a', model: 'm', createdAt: Date.now() };
const result: TraceResult = await feedback.logTrace(trace);
// A remote embedder of the backend's own, typed from the entry Workers import (not the Node-only one).
const embedder: Embedder = { id: 'remote', embed: async (texts) => texts.map(() => new Float32Array(2)) };
const ranked = await createReranker({ endpoint: 'http://127.0.0.1:8787', serverKey: 'rfs_x', embedder }).rerank('q', [{ chunkId: 'a', text: 'x' }]);
export const seen: [string, number | undefined] = [result.status, ranked[0]?.rerankScore];
`,
    );
    const tsconfig = {
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        types: ['node'],
      },
      include: ['app.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', dir], { cwd: dir, encoding: 'utf8' });
  });

  it('fails when an entry other than the embedder reaches node:fs, which browsers and Workers do not have', async () => {
    const src = mkdtempSync(join(tmpdir(), 'rf-client-src-'));
    dirs.push(src);
    // A helper both entries share, so node:fs comes to index.js through a chunk.
    writeFileSync(join(src, 'config.ts'), "import { readFileSync } from 'node:fs';\nexport const read = (p: string) => readFileSync(p, 'utf8');\n");
    writeFileSync(join(src, 'embedder.ts'), "export { read } from './config.ts';\n");
    writeFileSync(join(src, 'plain.ts'), 'export const plain = 1;\n');
    writeFileSync(join(src, 'careless.ts'), "import { read } from './config.ts';\nexport const careless = read;\n");
    const bundle = (index: string) => bundleClient({ index: join(src, index), 'transformers-embedder': join(src, 'embedder.ts') }, join(src, 'out'));
    await expect(bundle('plain.ts')).resolves.toBeUndefined();
    expect(existsSync(join(src, 'out', 'index.js'))).toBe(true);
    rmSync(join(src, 'out'), { recursive: true });
    await expect(bundle('careless.ts')).rejects.toThrow(
      /index\.js imports node:fs \(from \S*careless\.ts's modules\), which browsers and Workers do not have$/,
    );
    // Nothing written: no package a backend could install with it.
    expect(existsSync(join(src, 'out'))).toBe(false);
  });
});
