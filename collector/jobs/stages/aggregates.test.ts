import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { chunkSignalsSql, pendingAnswersSql } from './aggregates.ts';

/** SQLite's plan for a statement, one line per step, as the migrated schema gives it (no statistics). */
const planOf = async (sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(`explain query plan ${sql}`)
      .bind(...params)
      .all<{ detail: string }>()
  ).results.map((r) => r.detail);

describe("the chunk aggregates' plan", () => {
  // A night's answers, not every aggregate of the project: the table holds a million.
  it('finds the answers to add on the index of pending ones', async () => {
    const plan = await planOf(pendingAnswersSql, 'p', '', 10);
    expect(plan).toContainEqual(
      expect.stringMatching(/^SEARCH trace_stats USING (COVERING )?INDEX trace_stats_retrievals_pending \(project_id=\? AND trace_id>\?\)/),
    );
  });

  it("counts a chunk's signals from the events naming it, on their index", async () => {
    const plan = await planOf(chunkSignalsSql("select 'c1'"), 'p', null, null, null, 0, 0);
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH e USING INDEX feedback_events_chunk \(project_id=\? AND <expr>=\?\)/));
    expect(plan).toContainEqual(
      expect.stringMatching(/^SEARCH chunk_stats USING (COVERING )?INDEX sqlite_autoindex_chunk_stats_1 \(project_id=\? AND chunk_id=\?\)/),
    );
  });
});
