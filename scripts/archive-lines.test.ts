/**
 * `npm run archive:lines` reads an object of the raw rows' archive back with every chunk's text,
 * though the object writes each text once.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { type ArchivedChunk, ObjectTexts } from '../shared/archive-texts.ts';
import { ROOT } from './wrangler.ts';

const dir = mkdtempSync(join(tmpdir(), 'rf-archive-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const archiveLines = (args: string[], input?: Buffer) =>
  spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/archive-lines.ts', ...args], { cwd: ROOT, input, encoding: 'utf8' });

const trace = (traceId: string, chunks: ArchivedChunk[]) => ({ traceId, receivedAt: 1, chunks });
const full = [
  trace('t1', [
    { chunkId: 'c1', sourceDocVersion: 'v1', text: 'Refunds within 30 days.' },
    { chunkId: 'c2', sourceDocVersion: null, text: null },
  ]),
  trace('t2', [
    { chunkId: 'c2', sourceDocVersion: null, text: null },
    { chunkId: 'c1', sourceDocVersion: 'v1', text: 'Refunds within 30 days.' },
    { chunkId: 'c1', sourceDocVersion: 'v2', text: 'Refunds within 14 days.' },
  ]),
];

/** The day's object as the archive writes it: each text once. */
function object(): Buffer {
  const texts = new ObjectTexts();
  const lines = structuredClone(full).map((t) => {
    texts.keep(t.chunks);
    return JSON.stringify(t);
  });
  expect(lines[1]).not.toContain('30 days');
  return gzipSync(`${lines.join('\n')}\n`);
}

describe('npm run archive:lines', () => {
  it('prints a traces object’s lines with every chunk’s text, from a file or from stdin', { timeout: 30_000 }, () => {
    const path = join(dir, 'traces.jsonl.gz');
    writeFileSync(path, object());
    for (const run of [archiveLines([path]), archiveLines([], object())]) {
      expect(run.stderr).toBe('');
      expect(
        run.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l)),
      ).toEqual(full);
    }
  });

  it('prints an events object’s lines as they are', { timeout: 30_000 }, () => {
    const line = '{"eventId":"e1","detail":{"chunkId":"c1"},"receivedAt":1}';
    const run = archiveLines([], gzipSync(`${line}\n`));
    expect(run.stdout).toBe(`${line}\n`);
  });

  // \`script\` (util-linux) gives it a terminal for stdin, as a bare \`npm run archive:lines\` has.
  it.skipIf(process.platform !== 'linux')(
    'says in one line what to give it when run at a terminal with no file, rather than waiting',
    { timeout: 30_000 },
    () => {
      const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
      const run = spawnSync('script', ['-qec', `timeout 20 ${tsx} scripts/archive-lines.ts`, '/dev/null'], { cwd: ROOT, encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stdout.trim().split('\n')).toEqual([
        expect.stringMatching(/^error: give an object of the archive: npm run -s archive:lines -- FILE, or pipe one in/),
      ]);
    },
  );

  it('reads no further than what reads its lines (a pager) has taken, rather than holding the rest of the day in memory', { timeout: 60_000 }, async () => {
    // Some 16 MB gzipped, of lines random enough not to shrink.
    const lines = Array.from({ length: 40_000 }, (_, i) => JSON.stringify({ eventId: `e${i}`, note: randomBytes(300).toString('base64') }));
    const gz = gzipSync(`${lines.join('\n')}\n`);
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/archive-lines.ts'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    // Its reader takes nothing: a pager waiting on its first page.
    child.stdout.pause();
    child.stdin.on('error', () => undefined);
    let taken = 0;
    let started = false;
    try {
      for (let at = 0; at < gz.length; at += 65_536) {
        const part = gz.subarray(at, at + 65_536);
        if (!child.stdin.write(part)) {
          // Its start may take seconds; after that, a pause this long is its input held back.
          const drained = await Promise.race([once(child.stdin, 'drain').then(() => true), sleep(started ? 3_000 : 20_000).then(() => false)]);
          if (!drained) break;
          started = true;
        }
        taken = at + part.length;
      }
    } finally {
      child.kill('SIGKILL');
    }
    expect(taken).toBeLessThan(gz.length / 4);
  });

  it('ends quietly when what reads its lines goes before the end (| head, a pager quit)', { timeout: 60_000 }, async () => {
    const path = join(dir, 'long.jsonl.gz');
    const lines = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ eventId: `e${i}`, note: 'x'.repeat(200) }));
    writeFileSync(path, gzipSync(`${lines.join('\n')}\n`));
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/archive-lines.ts', path], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    // The reader takes its first line and goes.
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = await once(child, 'exit');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('says in one line what is wrong with input that is not gzipped, and what to give', { timeout: 30_000 }, () => {
    const run = archiveLines([], Buffer.from('{"traceId":"t1"}\n'));
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'error: stdin is not an object of the archive, which is gzipped (incorrect header check): give one as stored, a file or `npx wrangler r2 object get … --pipe`',
    ]);
  });

  it('says in one line that nothing came in, as when wrangler found no such object, naming what an object is called', { timeout: 30_000 }, () => {
    const run = archiveLines([], Buffer.alloc(0));
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      "error: stdin ended before an object of the archive did (unexpected end of file): nothing or part of one came in; if wrangler said the key does not exist, check the object's name (<projectId>/<events|traces>/<YYYY-MM-DD>.jsonl.gz, a UTC day archived by a night after it)",
    ]);
  });
});
