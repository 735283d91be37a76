import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { chunkRetrievalsSql } from './aggregates.ts';

/** SQLite's plan for a statement, one line per step, as the migrated schema gives it (no statistics). */
const planOf = async (sql: string) => (await env.DB.prepare(`explain query plan ${sql}`).bind('p').all<{ detail: string }>()).results.map((r) => r.detail);

describe("the chunk aggregates' plan", () => {
  // Every row of each touched chunk: on the chunk index alone, never a table row each.
  it("counts a chunk's retrievals, and those that showed it first, from the chunk index", async () => {
    const plan = await planOf(chunkRetrievalsSql("select 'c1' as key"));
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH c USING COVERING INDEX trace_chunks_chunk \(project_id=\? AND chunk_id=\?\)/));
  });
});
