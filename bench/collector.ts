/**
 * Collector write path under `wrangler dev` with the local D1: sustained events/s through
 * POST /v1/events (100-event batches, 4 concurrent senders), latency of a 50-event batch, and
 * this machine's raw SQLite insert rate into the same table for comparison.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NO_RATE_LIMITS, startLocalCollector } from '../scripts/local-collector.ts';
import { type DevServer, d1File, ROOT } from '../scripts/wrangler.ts';
import { uuidv7 } from '../shared/ids.ts';
import type { FeedbackEventInput } from '../shared/schema/event.ts';
import { groupCpu, selfCpu } from './process-cpu.ts';
import { percentile, type Row, row } from './stats.ts';

const RUNS = 5;
const SENDERS = 4;
const BATCHES_PER_SENDER = 50; // 4 x 50 x 100 = 20,000 events per run
const LATENCY_REQUESTS = 100;
const RAW_ROWS = 200_000;

const kinds: Pick<FeedbackEventInput, 'signalType' | 'detail'>[] = [
  { signalType: 'thumbs_up' },
  { signalType: 'citation_click', detail: { chunkId: 'chunk-0042' } },
  { signalType: 'answer_dwell', detail: { ms: 5400 } },
  { signalType: 'copy_answer', detail: { chars: 180 } },
];

let batches = 0;

/** A batch as widgets send them: a few events per answer, a few answers per session. */
function batch(size: number, sender: number, invalid = false): FeedbackEventInput[] {
  const now = Date.now();
  const n = batches++;
  return Array.from(
    { length: size },
    (_, i) =>
      ({
        eventId: uuidv7(now),
        traceId: `trace-${sender}-${n}-${i % 25}`,
        sessionId: `session-${sender}-${n}-${i % 10}`,
        clientTs: now,
        widgetVersion: '0.1.0',
        ...kinds[i % kinds.length]!,
        ...(invalid && { signalType: 'not_a_signal' }),
      }) as FeedbackEventInput,
  );
}

const body = (events: FeedbackEventInput[]) => JSON.stringify({ events });

/** Kept-alive connections and node:http: the load generator should cost the machine as little as it can. */
const agent = new http.Agent({ keepAlive: true, maxSockets: SENDERS });

function post(url: string, key: string, json: string, expected: number, status = 200): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/v1/events`,
      { method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.statusCode !== status || (JSON.parse(text) as { accepted?: number }).accepted !== expected) {
            reject(new Error(`unexpected answer ${res.statusCode}: ${text.slice(0, 300)}`));
          } else resolve();
        });
      },
    );
    req.on('error', reject);
    req.end(json);
  });
}

/** Which wrangler dev process a pid is, for the CPU breakdown. */
function role(cmd: string, port: number): string {
  if (cmd.includes('workerd')) return cmd.includes(`entry=127.0.0.1:${port} `) ? 'wrangler proxy (workerd)' : 'collector Worker + D1 (workerd)';
  if (cmd.includes('wrangler-dist')) return 'wrangler dev (node)';
  return 'other (esbuild watch, npm shim)';
}

function rawSqliteRate(): number {
  const dir = mkdtempSync(join(tmpdir(), 'rf-raw-'));
  const db = new Database(join(dir, 'raw.sqlite'));
  db.pragma('journal_mode = WAL');
  const migrations = join(ROOT, 'collector', 'migrations');
  for (const f of readdirSync(migrations)
    .filter((f) => f.endsWith('.sql'))
    .sort())
    db.exec(readFileSync(join(migrations, f), 'utf8'));
  const insert = db.prepare(
    `insert into feedback_events (project_id, event_id, trace_id, session_id, signal_type, signal_value, signal_group, superseded, detail, widget_version, client_ts, received_at)
     values ('p', ?, ?, ?, 'citation_click', 0.5, null, 0, '{"chunkId":"chunk-0042"}', '0.1.0', ?, ?) on conflict do nothing`,
  );
  const now = Date.now();
  const ids = Array.from({ length: RAW_ROWS }, () => uuidv7(now));
  const start = performance.now();
  db.transaction(() => {
    for (let i = 0; i < RAW_ROWS; i++) insert.run(ids[i], `trace-${i % 1000}`, `session-${i % 5000}`, now, now);
  })();
  const seconds = (performance.now() - start) / 1000;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return RAW_ROWS / seconds;
}

/**
 * RUNS runs of SENDERS concurrent senders, each posting BATCHES_PER_SENDER 100-event batches:
 * events per second, and the CPU each process spent per 10k events.
 */
async function throughputRuns(server: DevServer, key: string, invalid: boolean) {
  const throughput: number[] = [];
  const cpu = new Map<string, number[]>();
  for (let run = 0; run < RUNS; run++) {
    // Bodies are made before the clock starts: the figure is the collector's, not the load generator's.
    const queues = Array.from({ length: SENDERS }, (_, sender) => Array.from({ length: BATCHES_PER_SENDER }, () => body(batch(100, sender, invalid))));
    const cpuBefore = groupCpu(server.process.pid!);
    const selfBefore = selfCpu();
    const start = performance.now();
    await Promise.all(
      queues.map(async (q) => {
        for (const json of q) await post(server.url, key, json, invalid ? 0 : 100, invalid ? 400 : 200);
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const events = SENDERS * BATCHES_PER_SENDER * 100;
    throughput.push(events / seconds);
    const per10k = new Map<string, number>([['load generator (this process)', selfCpu() - selfBefore]]);
    for (const [pid, { cmd, seconds: s }] of groupCpu(server.process.pid!)) {
      const r = role(cmd, server.port);
      per10k.set(r, (per10k.get(r) ?? 0) + s - (cpuBefore.get(pid)?.seconds ?? 0));
    }
    for (const [r, s] of per10k) cpu.set(r, [...(cpu.get(r) ?? []), (s * 10_000 * 1000) / events]);
  }
  return { throughput, cpu };
}

/** Longest wait for the queue's consumer to store a run's events. */
const DRAIN_TIMEOUT_MS = 120_000;

/**
 * The same load in queue mode (EVENTS_INGEST=queue): events/s accepted (the request checks and
 * queues them), and events/s stored (from the first request until the consumer has written the
 * last event to D1, read from the local D1's file).
 */
async function queuedRuns(): Promise<{ accepted: number[]; stored: number[] }> {
  const server = await startLocalCollector({ vars: { ...NO_RATE_LIMITS, EVENTS_INGEST: 'queue' } });
  const db = new Database(d1File(server.persistTo), { readonly: true, fileMustExist: true });
  const count = () => (db.prepare('select count(*) as n from feedback_events').get() as { n: number }).n;
  const drained = async (n: number) => {
    const deadline = performance.now() + DRAIN_TIMEOUT_MS;
    while (count() < n) {
      if (performance.now() > deadline) throw new Error(`queue mode: ${count()} of ${n} events stored after ${DRAIN_TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    const key = server.keys.write;
    for (let i = 0; i < 20; i++) await post(server.url, key, body(batch(100, 98)), 100);
    await drained(2_000);
    const accepted: number[] = [];
    const stored: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const before = count();
      const queues = Array.from({ length: SENDERS }, (_, sender) => Array.from({ length: BATCHES_PER_SENDER }, () => body(batch(100, sender))));
      const events = SENDERS * BATCHES_PER_SENDER * 100;
      const start = performance.now();
      await Promise.all(
        queues.map(async (q) => {
          for (const json of q) await post(server.url, key, json, 100);
        }),
      );
      accepted.push(events / ((performance.now() - start) / 1000));
      await drained(before + events);
      stored.push(events / ((performance.now() - start) / 1000));
    }
    return { accepted, stored };
  } finally {
    db.close();
    await server.stop();
  }
}

export async function collectorBench(): Promise<Row[]> {
  const server = await startLocalCollector({ vars: NO_RATE_LIMITS });
  try {
    const key = server.keys.write;
    for (let i = 0; i < 20; i++) await post(server.url, key, body(batch(100, 99)), 100); // warm up the isolate and D1

    const stored = await throughputRuns(server, key, false);
    const rejected = await throughputRuns(server, key, true);

    const p50: number[] = [];
    const p99: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const bodies = Array.from({ length: LATENCY_REQUESTS }, () => body(batch(50, 7)));
      const latencies: number[] = [];
      for (const json of bodies) {
        const start = performance.now();
        await post(server.url, key, json, 50);
        latencies.push(performance.now() - start);
      }
      p50.push(percentile(latencies, 50));
      p99.push(percentile(latencies, 99));
    }

    const queued = await queuedRuns();
    const raw = Array.from({ length: 3 }, rawSqliteRate);
    const ratio = stored.throughput.map((t, i) => t / raw[i % raw.length]!);
    return [
      row('collector', 'POST /v1/events, 100-event batches, 4 senders', 'events/s', stored.throughput, '>= 20000'),
      row('collector', 'same, every event rejected: validation without the D1 write', 'events/s', rejected.throughput),
      row('collector', 'POST /v1/events, 50-event batch, p50 latency', 'ms', p50),
      row('collector', 'POST /v1/events, 50-event batch, p99 latency', 'ms', p99),
      row('collector', 'raw SQLite insert (better-sqlite3, one transaction)', 'rows/s', raw),
      row('collector', 'collector / raw SQLite', 'ratio', ratio),
      ...[...stored.cpu].map(([r, samples]) => row('collector', `CPU per 10k events: ${r}`, 'ms', samples)),
      ...[...rejected.cpu].map(([r, samples]) => row('collector', `CPU per 10k rejected events: ${r}`, 'ms', samples)),
      row('collector', 'queue mode: POST /v1/events accepted, same load', 'events/s', queued.accepted, '>= 20000'),
      row('collector', 'queue mode: stored by the consumer, first request to last write', 'events/s', queued.stored),
    ];
  } finally {
    await server.stop();
  }
}
