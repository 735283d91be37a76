/**
 * A Worker that does only the work any nightly design must do at least once, on the benchmark's
 * own D1 (bench/nightly/probe.ts serves it under `wrangler dev` on the same local database):
 * reading every event through D1 into the Worker, and writing a row per trace from it. Each call
 * works for about `PROBE_CALL_MS` and says where it stopped, as the job's invocations do.
 */

import { PROBE_TABLE_SQL, probeRow } from './probe-rows.ts';

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
    let last = after;
    let rows = 0;
    if (url.pathname === '/read') {
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
      await env.DB.prepare(PROBE_TABLE_SQL).bind().run();
      for (let from = Number(after || 0); ; from += WRITE_PAGE) {
        const count = Math.min(WRITE_PAGE, total - from);
        const values = Array.from({ length: count }, (_, i) => probeRow(from + i));
        if (count > 0)
          await env.DB.prepare(
            `insert into probe_trace_rows select ?1, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7
             from json_each(?2) where true on conflict do nothing`,
          )
            .bind(project, JSON.stringify(values))
            .run();
        rows += Math.max(0, count);
        if (from + WRITE_PAGE >= total) {
          await env.DB.prepare('drop table probe_trace_rows').bind().run();
          return Response.json({ rows, done: true, ms: Date.now() - started });
        }
        if (Date.now() - started > PROBE_CALL_MS) return Response.json({ rows, done: false, after: String(from + WRITE_PAGE), ms: Date.now() - started });
      }
    }
    return new Response('not found', { status: 404 });
  },
};
