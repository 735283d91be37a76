/**
 * A review queue of a given length for the console's benchmarks: the seed's traffic (npm run
 * seed) and a nightly run mine the first items; copies of them (each with its traces, at a lower
 * expected value so they queue behind) make up the rest.
 */

import type { LocalCollector } from '../scripts/local-collector.ts';
import { query, queryEach } from '../scripts/local-d1-sql.ts';
import { seed } from '../scripts/seed/send.ts';

const ITEM_COLUMNS = `query_key, query, chunk_id, source_doc_id, source_doc_version, chunk_text, rank, score, candidate, guess, guess_why, evidence,
  trace_count, weight, expected_value, status, verdict, note, answered_at, mined_at, updated_at`;
const TRACE_COLUMNS = 'trace_id, candidate, weight, evidence, rank, score, guess, guess_why, mined_at';

/** Fills the collector's project with traffic, runs the nightly job, and makes at least `items` review items wait. */
export async function seedReviewQueue(collector: LocalCollector, items: number): Promise<number> {
  await seed({ endpoint: collector.url, serverKey: collector.keys.server, sessions: 60, seed: 7 });
  const res = await fetch(`${collector.url}/v1/admin/nightly`, { method: 'POST', headers: { authorization: `Bearer ${collector.keys.admin}` } });
  if (!res.ok) throw new Error(`nightly run: ${res.status} ${await res.text()}`);
  const d1 = { persistTo: collector.persistTo };
  const pending = async () => (await query<{ n: number }>("select count(*) as n from review_items where status = 'pending'", d1))[0]!.n;
  const mined = await pending();
  if (mined === 0) throw new Error('the nightly run mined no review items');
  if (mined >= items) return mined;
  const copies = Math.ceil((items - mined) / mined);
  await queryEach(
    [
      `with recursive k(n) as (select 1 union all select n + 1 from k where n < ${copies})
     insert into review_item_traces (project_id, item_id, ${TRACE_COLUMNS})
       select t.project_id, t.item_id || '~' || k.n, ${TRACE_COLUMNS.replace(/(\w+)/g, 't.$1')} from review_item_traces t
       join review_items i on i.project_id = t.project_id and i.item_id = t.item_id and i.status = 'pending', k`,
      `with recursive k(n) as (select 1 union all select n + 1 from k where n < ${copies})
     insert into review_items (project_id, item_id, ${ITEM_COLUMNS})
       select project_id, item_id || '~' || k.n, ${ITEM_COLUMNS.replace('expected_value', 'expected_value / (k.n + 1)')} from review_items, k where status = 'pending'`,
    ],
    d1,
  );
  return pending();
}
