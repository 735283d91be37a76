import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { touchedChunksSql } from './prepare.ts';

/** SQLite's plan for a statement, one line per step, as the migrated schema gives it (no statistics). */
const planOf = async (sql: string) =>
  (await env.DB.prepare(`explain query plan ${sql}`).bind('p', '2026-11-26').all<{ detail: string }>()).results.map((r) => r.detail);

describe("the touched chunks' plan", () => {
  it('reads each touched trace on its own rows when a night touches a few', async () => {
    const plan = await planOf(touchedChunksSql(false));
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH c USING INDEX sqlite_autoindex_trace_chunks_1 \(project_id=\? AND trace_id=\?\)/));
    // Never the project's whole chunk index once per trace: seconds a trace at a million rows.
    expect(plan.filter((step) => /trace_chunks_chunk \(project_id=\?\)$/.test(step))).toEqual([]);
  });

  it('walks the chunk index once when a night touches most traces', async () => {
    const plan = await planOf(touchedChunksSql(true));
    expect(plan).toContainEqual(expect.stringMatching(/trace_chunks_chunk \(project_id=\? AND chunk_id=\?\)/));
  });
});
