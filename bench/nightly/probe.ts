/**
 * What any design of the nightly job pays at this volume, measured on the benchmark's own data:
 * under `wrangler dev`, reading every event once through D1 into a Worker, writing one row per
 * trace, and one row per (review item, trace) the run mined, from a Worker
 * (bench/nightly/probe-worker.ts, served on the same local D1); in SQLite alone (better-sqlite3
 * on the floor's copy), reading every event once, one pass grouping them by trace, and the same
 * writes. A job under these figures is not possible with the work it has to do; above them, the
 * difference is what the job's own design costs.
 *
 * The (item, trace) rows are written twice: in the order slices of traces raise them, which for
 * a table keyed by item is any order, and sorted by item. A job that works in bounded slices of
 * traces (as a Cron Trigger's limits require) meets its items in the first order; the second is
 * what the same rows cost when they arrive in the table's own order.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { freePort } from '../../scripts/free-port.ts';
import { OFFLINE_ENV, ROOT, stopProcessGroup } from '../../scripts/wrangler.ts';
import { post } from './drive.ts';
import { ITEM_ORDERS, type ItemOrder, PROBE_ITEM_TABLE_SQL, PROBE_TABLE_SQL, probeItemRow, probeRow } from './probe-rows.ts';

export interface Irreducible {
  /** Under wrangler dev: every event read once into a Worker, and one row written per trace, in ms. */
  workerReadMs: number;
  workerReadRows: number;
  workerWriteMs: number;
  /** Under wrangler dev: a row per (item, trace) mined, 2,000 a statement, in each order, in ms. */
  workerItemMs: Record<ItemOrder, number>;
  /** In SQLite alone, in ms. */
  sqliteReadMs: number;
  sqliteReadRows: number;
  sqliteGroupMs: number;
  sqliteWriteMs: number;
  /** The same (item, trace) rows in SQLite alone, 2,000 a transaction, in each order, in ms. */
  sqliteItemMs: Record<ItemOrder, number>;
}

/** What the job mined, which the (item, trace) rows take their volume from. */
export interface Mined {
  traces: number;
  candidates: number;
  items: number;
}

/** Rows per transaction of the (item, trace) writes in SQLite alone: a slice's, as under D1. */
const ITEM_TRANSACTION = 2_000;

const WRANGLER = join(ROOT, 'node_modules', '.bin', 'wrangler');
/** wrangler's proxy answers this, without reaching the Worker, to a POST it cannot retry by itself. */
const RESTARTED = /restarted mid-request/;

/** Serves the probe Worker with the collector's D1 binding on `persistTo` and resolves once it answers. */
async function serveProbe(dir: string, persistTo: string): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const config = join(dir, 'probe.wrangler.toml');
  // The collector's D1 binding and id: wrangler keeps a local database per id, so this is the same file.
  writeFileSync(
    config,
    [
      'name = "nightly-probe"',
      `main = "${join(ROOT, 'bench', 'nightly', 'probe-worker.ts')}"`,
      'compatibility_date = "2026-04-20"',
      'send_metrics = false',
      '[[d1_databases]]',
      'binding = "DB"',
      'database_name = "rag-feedback"',
      'database_id = "00000000-0000-0000-0000-000000000000"',
    ].join('\n'),
  );
  const port = await freePort();
  const child = spawn(WRANGLER, ['dev', '--config', config, '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'warn', '--persist-to', persistTo], {
    cwd: ROOT,
    env: { ...process.env, ...OFFLINE_ENV, WRANGLER_LOG_PATH: join(dir, 'probe-wrangler.log') },
    detached: true,
    stdio: 'pipe',
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const stop = () => stopProcessGroup(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the probe's wrangler dev exited:\n${output}`);
    try {
      const res = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 404) return { url, child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`the probe's wrangler dev did not answer:\n${output}`);
}

/** Calls one probe path until it is done; the sum of the Worker's own times. */
async function drain(url: string, path: string, query: string): Promise<{ ms: number; rows: number }> {
  let after = '';
  let ms = 0;
  let rows = 0;
  for (;;) {
    let res = await post(`${url}${path}?${query}&after=${encodeURIComponent(after)}`);
    // As with the job's calls (drive.ts): the call after a long one may meet wrangler's proxy reconnecting; it did nothing.
    for (let attempt = 1; res.status === 503 && RESTARTED.test(res.text) && attempt < 3; attempt++) {
      await new Promise((r) => setTimeout(r, 1_000));
      res = await post(`${url}${path}?${query}&after=${encodeURIComponent(after)}`);
    }
    if (res.status !== 200) throw new Error(`probe ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
    const body = JSON.parse(res.text) as { rows: number; ms: number; done: boolean; after?: string };
    ms += body.ms;
    rows += body.rows;
    if (body.done) return { ms, rows };
    after = body.after!;
  }
}

/** The Worker's share, under wrangler dev, on the database in `persistTo` (not changed: the scratch table is dropped). */
export async function probeWorker(dir: string, persistTo: string, projectId: string, { traces, candidates, items }: Mined) {
  const server = await serveProbe(dir, persistTo);
  try {
    const read = await drain(server.url, '/read', `project=${projectId}`);
    const write = await drain(server.url, '/write', `project=${projectId}&rows=${traces}`);
    const workerItemMs = {} as Record<ItemOrder, number>;
    for (const order of ITEM_ORDERS)
      workerItemMs[order] = (await drain(server.url, '/write-items', `project=${projectId}&rows=${candidates}&items=${items}&order=${order}`)).ms;
    return { workerReadMs: read.ms, workerReadRows: read.rows, workerWriteMs: write.ms, workerItemMs };
  } finally {
    await server.stop();
  }
}

/** SQLite's share, on the database file `file` (not changed: the scratch table is dropped). */
export function probeSqlite(file: string, projectId: string, { traces, candidates, items }: Mined) {
  const db = new Database(file);
  try {
    const time = (f: () => void) => {
      const start = performance.now();
      f();
      return performance.now() - start;
    };
    let sqliteReadRows = 0;
    const sqliteReadMs = time(() => {
      let n = 0;
      for (const _ of db
        .prepare(
          'select event_id, trace_id, session_id, signal_type, signal_value, superseded, detail, client_ts, shown_ms, ip_hash from feedback_events where project_id = ?',
        )
        .iterate(projectId))
        n++;
      sqliteReadRows = n;
    });
    const sqliteGroupMs = time(() => {
      db.prepare(
        `select count(*) from (select trace_id, count(*), avg(signal_value), sum(case when superseded = 0 then 1 end) from feedback_events where project_id = ? group by trace_id)`,
      ).get(projectId);
    });
    const sqliteWriteMs = time(() => {
      db.exec(PROBE_TABLE_SQL);
      const insert = db.prepare('insert into probe_trace_rows values (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      db.transaction(() => {
        for (let n = 0; n < traces; n++) insert.run(projectId, ...probeRow(n));
      })();
    });
    db.exec('drop table probe_trace_rows');
    const sqliteItemMs = {} as Record<ItemOrder, number>;
    for (const order of ITEM_ORDERS)
      sqliteItemMs[order] = time(() => {
        db.exec(PROBE_ITEM_TABLE_SQL);
        const insert = db.prepare('insert into probe_item_rows values (?, ?, ?, ?, ?)');
        for (let from = 0; from < candidates; from += ITEM_TRANSACTION)
          db.transaction(() => {
            for (let n = from; n < Math.min(candidates, from + ITEM_TRANSACTION); n++) insert.run(projectId, ...probeItemRow(n, candidates, items, order));
          })();
        db.exec('drop table probe_item_rows');
      });
    return { sqliteReadMs, sqliteReadRows, sqliteGroupMs, sqliteWriteMs, sqliteItemMs };
  } finally {
    db.close();
  }
}
