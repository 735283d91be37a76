import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { touchedChunkDaysSql } from './prepare.ts';

/** SQLite's plan for a statement, one line per step, as the migrated schema gives it (no statistics). */
const planOf = async (sql: string) =>
  (await env.DB.prepare(`explain query plan ${sql}`).bind('p', '2026-11-26').all<{ detail: string }>()).results.map((r) => r.detail);

describe("the touched chunk days' plan", () => {
  it('reads each touched trace on its own events when a night touches a few', async () => {
    const plan = await planOf(touchedChunkDaysSql(false));
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH e USING INDEX feedback_trace \(project_id=\? AND trace_id=\?\)/));
    // Never every event of the project once per trace.
    expect(plan.filter((step) => /feedback_events_chunk \(project_id=\?\)$/.test(step))).toEqual([]);
  });

  it('reads only the events naming a chunk, on their index, when a night touches most traces', async () => {
    const plan = await planOf(`select ?2 as night, key from (${touchedChunkDaysSql(true)})`);
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH e USING (COVERING )?INDEX feedback_events_chunk \(project_id=\?\)/));
  });
});
