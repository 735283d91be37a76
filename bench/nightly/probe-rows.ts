/**
 * The probe's per-trace rows, shaped like `trace_stats`: one definition for the Worker that writes
 * them through D1 (probe-worker.ts) and for the same write in SQLite alone (probe.ts).
 */

export const PROBE_TABLE_SQL = `create table if not exists probe_trace_rows (project_id text not null, trace_id text not null, query_key text not null,
  created_at integer not null, score real, weighted_score real, live_signals integer not null, trusted_signals integer not null, confidence real,
  primary key (project_id, trace_id))`;

/** Row `n`'s columns after the project id, in the table's order. */
export const probeRow = (n: number) => [
  `0199${n.toString(16).padStart(8, '0')}-probe`,
  `how do i probe question ${n % 50_000}`,
  1_790_000_000_000 + n,
  0.5,
  n % 2 ? 0.6 : -0.4,
  5,
  3,
  0.7,
];
