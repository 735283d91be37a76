/**
 * A backend's shutdown as the README shows it, in a real Node process: on SIGTERM it flushes with a
 * deadline while the collector does not answer, and the process then ends on its own, within its
 * grace period, having told `onError` of the trace it could not deliver.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLIENT = new URL('./index.ts', import.meta.url).pathname;

/** The backend: logs a trace, says so, and on SIGTERM flushes for at most 300 ms, without process.exit(). */
const backend = (endpoint: string) => `
import { createTraceClient } from ${JSON.stringify(CLIENT)};
const feedback = createTraceClient({
  endpoint: ${JSON.stringify(endpoint)},
  serverKey: 'rfs_shutdown_test',
  flushIntervalMs: 0,
  onError: (result) => console.log(JSON.stringify(result)),
});
process.once('SIGTERM', async () => {
  await feedback.flush({ timeoutMs: 300 });
  console.log('flushed');
});
void feedback.logTrace({ traceId: '01a244ff-7359-71d8-8816-ac769f1f02f6', query: 'q', retrievedChunks: [], answer: 'a', model: 'm', sessionId: 's', createdAt: Date.now() });
`;

/** A collector that takes connections and never answers. */
let hung: Server;
const sockets: Socket[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rf-shutdown-'));
  hung = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => hung.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe('TraceClient at shutdown', () => {
  it("ends a process on SIGTERM within flush's timeoutMs while the collector hangs, the trace told to onError as failed", async () => {
    const { port } = hung.address() as { port: number };
    const script = join(dir, 'backend.mts');
    await writeFile(script, backend(`http://127.0.0.1:${port}`));
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    // The trace's request is on its way once the collector has its connection.
    while (sockets.length === 0) await new Promise((r) => setTimeout(r, 20));
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    // Retries against a hung collector would keep it alive for over a minute (six attempts of 10 s).
    const code = await Promise.race([exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), 8_000))]);
    if (code === 'alive') child.kill('SIGKILL');
    expect(code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    const [told, flushed] = out.trim().split('\n');
    expect(JSON.parse(told!)).toEqual({
      traceId: '01a244ff-7359-71d8-8816-ac769f1f02f6',
      status: 'failed',
      reason: 'unanswered when flush gave up after 300 ms',
    });
    expect(flushed).toBe('flushed');
  }, 15_000);
});
