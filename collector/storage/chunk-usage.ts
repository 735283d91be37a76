import type { ChunkSort, ChunkUsage } from '../../shared/admin-api/chunks.ts';
import { ownerOf } from '../loop/documents.ts';
import { ownersOf } from './owner-rules.ts';

/** Each sort's order; ties go to the chunk shown more (surer of its click-through), then by id so a page reads the same twice. */
const ORDER: Record<ChunkSort, string> = {
  ctr: 'ctr asc, shown desc, chunkId',
  flags: 'wrongSourceFlags desc, ctr asc, shown desc, chunkId',
};

/**
 * Chunks shown first at least `minShown` times, from the nightly job's running counts
 * (`chunk_stats`), in the sort's order, each with its document's owner by the rules stored now.
 */
export async function chunkUsage(d1: D1Database, projectId: string, q: { minShown: number; sort: ChunkSort; limit: number }): Promise<ChunkUsage[]> {
  const [owners, { results }] = await Promise.all([
    ownersOf(d1, projectId),
    d1
      .prepare(
        // minShown is at least 1: the division is never by zero.
        `select chunk_id as chunkId, source_doc_id as sourceDocId, retrieved, top_ranked as shown, clicks, cast(clicks as real) / top_ranked as ctr,
           focused_dwells as focusedDwells, copies, wrong_source_flags as wrongSourceFlags
         from chunk_stats where project_id = ?1 and top_ranked >= ?2
         order by ${ORDER[q.sort]} limit ?3`,
      )
      .bind(projectId, q.minShown, q.limit)
      .all<Omit<ChunkUsage, 'owner'>>(),
  ]);
  return results.map((r) => ({ ...r, owner: ownerOf(r.sourceDocId, owners) ?? null }));
}
