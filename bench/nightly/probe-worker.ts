/**
 * A Worker that does only the work any nightly design must do at least once, on the benchmark's
 * own D1 (bench/nightly/probe.ts serves it under `wrangler dev` on the same local database):
 * reading every event through D1 into the Worker, and writing a row per trace from it. Each call
 * works for about `PROBE_CALL_MS` and says where it stopped, as the job's invocations do.
 */

import { PROBE_ITEM_TABLE_SQL, PROBE_TABLE_SQL, probeItemRow, probeRow } from './probe-rows.ts';

/** The part of the D1 binding used here (this file is type-checked with the benchmark, for Node). */
interface D1 {
  prepare(sql: string): { bind(...values: unknown[]): { all<T>(): Promise<{ results: T[] }>; run(): Promise<unknown> } };
}

/** How long one call works: like one of the job's invocations. */
const PROBE_CALL_MS = 20_000;
/** Rows read per statement: the assess stage reads a slice's ~10,000 events at once. */
const READ_PAGE = 10_000;
/** Rows written per statement: the assess stage writes a slice's 2,000 traces at once. */
const WRITE_PAGE = 2_000;

/** The columns the assess stage reads of each event. */
const EVENT_COLUMNS = 'event_id, trace_id, session_id, signal_type, signal_value, superseded, detail, client_ts, shown_ms, ip_hash';

export default {
  async fetch(request: Request, env: { DB: D1 }): Promise<Response> {
    const url = new URL(request.url);
    const project = url.searchParams.get('project') ?? '';
    const after = url.searchParams.get('after') ?? '';
    const started = Date.now();
    if (url.pathname === '/read') {
      let last = after;
      let rows = 0;
      // Every event once, in the order of the index the job reads them by (trace, then event).
      for (;;) {
        const { results } = await env.DB.prepare(
          `select ${EVENT_COLUMNS} from feedback_events where project_id = ?1 and event_id > ?2 order by event_id limit ${READ_PAGE}`,
        )
          .bind(project, last)
          .all<{ event_id: string }>();
        rows += results.length;
        if (results.length < READ_PAGE) return Response.json({ rows, done: true, ms: Date.now() - started });
        last = results.at(-1)!.event_id;
        if (Date.now() - started > PROBE_CALL_MS) return Response.json({ rows, done: false, after: last, ms: Date.now() - started });
      }
    }
    if (url.pathname === '/write') {
      // A row per trace, shaped like trace_stats, into a scratch table: what storing any per-trace result costs.
      const total = Number(url.searchParams.get('rows'));
      return writeRows(env.DB, project, started, after, total, PER_TRACE, (n) => probeRow(n));
    }
    if (url.pathname === '/write-items') {
      // A row per (item, trace) raised, in the order slices of traces raise them or sorted by item:
      // what keeping the traces behind each review item costs, and what the order costs.
      const total = Number(url.searchParams.get('rows'));
      const items = Number(url.searchParams.get('items'));
      const order = url.searchParams.get('order') === 'sorted' ? 'sorted' : 'slices';
      return writeRows(env.DB, project, started, after, total, PER_ITEM, (n) => probeItemRow(n, total, items, order));
    }
    return new Response('not found', { status: 404 });
  },
};

interface ScratchTable {
  create: string;
  name: string;
  /** The row's columns after the project id, from the JSON array `value`. */
  columns: string;
}

const PER_TRACE: ScratchTable = {
  create: PROBE_TABLE_SQL,
  name: 'probe_trace_rows',
  columns: 'value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7',
};
const PER_ITEM: ScratchTable = { create: PROBE_ITEM_TABLE_SQL, name: 'probe_item_rows', columns: 'value ->> 0, value ->> 1, value ->> 2, value ->> 3' };

/** Writes rows `after`… of `total` into a scratch table, WRITE_PAGE a statement, for about PROBE_CALL_MS; drops it when done. */
async function writeRows(
  db: D1,
  project: string,
  started: number,
  after: string,
  total: number,
  table: ScratchTable,
  rowOf: (n: number) => unknown[],
): Promise<Response> {
  let rows = 0;
  await db.prepare(table.create).bind().run();
  for (let from = Number(after || 0); ; from += WRITE_PAGE) {
    const count = Math.min(WRITE_PAGE, total - from);
    const values = Array.from({ length: Math.max(0, count) }, (_, i) => rowOf(from + i));
    if (count > 0)
      await db
        .prepare(`insert into ${table.name} select ?1, ${table.columns} from json_each(?2) where true on conflict do nothing`)
        .bind(project, JSON.stringify(values))
        .run();
    rows += Math.max(0, count);
    if (from + WRITE_PAGE >= total) {
      await db.prepare(`drop table ${table.name}`).bind().run();
      return Response.json({ rows, done: true, ms: Date.now() - started });
    }
    if (Date.now() - started > PROBE_CALL_MS) return Response.json({ rows, done: false, after: String(from + WRITE_PAGE), ms: Date.now() - started });
  }
}
