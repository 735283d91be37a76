/**
 * The probe's rows: per trace, shaped like `trace_stats`, and per (review item, trace), the least
 * a row of `review_item_traces` holds. One definition for the Worker that writes them through D1
 * (probe-worker.ts) and for the same writes in SQLite alone (probe.ts).
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

export const PROBE_ITEM_TABLE_SQL = `create table if not exists probe_item_rows (project_id text not null, item_id text not null, trace_id text not null,
  weight real not null, rank integer not null, primary key (project_id, item_id, trace_id))`;

/** The orders items come in: as slices of traces raise them (any order of items), or sorted. */
export const ITEM_ORDERS = ['slices', 'sorted'] as const;
export type ItemOrder = (typeof ITEM_ORDERS)[number];

/** A 32-bit mix (murmur3's finaliser): spreads consecutive numbers over the key space, as hashed item ids are. */
const mix = (x: number) => {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/**
 * Row `n` of `total` (after the project id): the n-th trace raising one of `items` items, each
 * raised by traces spread over the month. In `slices` order the item ids come as mining meets them;
 * in `sorted` order the same rows arrive by item id.
 */
export function probeItemRow(n: number, total: number, items: number, order: ItemOrder): [string, string, number, number] {
  const item = n % items;
  const id = `${mix(item).toString(16).padStart(8, '0')}${mix(item + 1)
    .toString(16)
    .padStart(8, '0')}${item.toString(16).padStart(16, '0')}`;
  const sortedId = `${Math.floor((n / total) * 2 ** 32)
    .toString(16)
    .padStart(8, '0')}${id.slice(8)}`;
  return [order === 'slices' ? id : sortedId, `0199${n.toString(16).padStart(8, '0')}-probe`, 0.5, 1 + (n % 3)];
}
