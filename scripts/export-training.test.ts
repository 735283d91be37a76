/**
 * `npm run export:training -- --out FILE` writes the whole export or leaves the file as it was:
 * a disk that fills up mid-write (here a file size limit) must not leave half an export behind.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainingWorld } from '../shared/training/fixture.ts';
import { type AdminApiStub, stubAdminApi } from './admin-api-stub.ts';
import { ROOT } from './wrangler.ts';

const run = promisify(execFile);
const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
const dir = mkdtempSync(join(tmpdir(), 'rf-export-'));
let collector: AdminApiStub;

beforeAll(async () => {
  // 200 triples, some 60 KB of JSONL.
  collector = await stubAdminApi({ 'GET /v1/admin/training-data': { status: 200, body: { data: trainingWorld(200).data } } });
});
afterAll(async () => {
  await collector?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run export:training --out', () => {
  it('writes every triple', { timeout: 30_000 }, async () => {
    const out = join(dir, 'all.jsonl');
    const { stderr } = await run(tsx, ['scripts/export-training.ts', '--endpoint', collector.url, '--admin-key', 'rfa_x', '--out', out], { cwd: ROOT });
    expect(stderr).toBe(`200 triples written to ${out}\n`);
    expect(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).query),
    ).toHaveLength(200);
  });

  it('leaves the file as it was when the export cannot be written whole, and exits 1', { timeout: 30_000 }, async () => {
    const out = join(dir, 'kept.jsonl');
    writeFileSync(out, '{"query":"last week","positive":"p","negative":"n"}\n');
    // At most 16 KB a file: the write fails a quarter of the way in.
    const script = `ulimit -f 16; exec "$0" scripts/export-training.ts --endpoint ${collector.url} --admin-key rfa_x --out "$1"`;
    const failed = await run('bash', ['-c', script, tsx, out], { cwd: ROOT }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^error: EFBIG: file too large/);
    expect(readFileSync(out, 'utf8')).toBe('{"query":"last week","positive":"p","negative":"n"}\n');
    expect(readdirSync(dir).filter((f) => f.startsWith('kept'))).toEqual(['kept.jsonl']);
  });
});
