import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { keepPurgedChunkSignalsSql } from './chunk-signals.ts';

/** SQLite's plan for a statement, one line per step, as the migrated schema gives it (no statistics). */
const planOf = async (sql: string) => (await env.DB.prepare(`explain query plan ${sql}`).bind('p').all<{ detail: string }>()).results.map((r) => r.detail);

describe("the purged events' signals", () => {
  // Retention's batches list a few thousand events: each is read by its key, not every event of the project tested against the list.
  it('reads the listed events and their chunks by their keys', async () => {
    const plan = await planOf(keepPurgedChunkSignalsSql("select 'e1' as event_id"));
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH e USING INDEX sqlite_autoindex_feedback_events_1 \(project_id=\? AND event_id=\?\)/));
    expect(plan.filter((step) => /^SCAN e\b|feedback_events_chunk \(project_id=\?\)$/.test(step))).toEqual([]);
    // And each chunk they name by its key, never every chunk of the project.
    expect(plan).toContainEqual(expect.stringMatching(/^SEARCH chunk_stats USING INDEX sqlite_autoindex_chunk_stats_1 \(project_id=\? AND chunk_id=\?\)/));
    expect(plan.filter((step) => /^SCAN chunk_stats\b|chunk_stats\w* \(project_id=\?\)$/.test(step))).toEqual([]);
  });
});
