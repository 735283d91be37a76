import { BY_TRACE } from './chunk-rows-by-trace.ts';
import { TEXT_VERSION } from './chunk-text.ts';

/**
 * A chunk's text may be used by no row once rows are deleted, and only then: the statements that
 * delete chunk rows list their chunks first (`chunk_text_checks`), and retention looks at those
 * alone, not at every text of the project each night. Project ?1 throughout.
 */

/**
 * Lists the chunks of the rows of the traces `tracesSql` selects (one column), before those rows
 * go, each trace's rows on their key (seconds a night at volume on the chunk index, even with no
 * trace due).
 */
export const listTextChecksSql = (tracesSql: string) =>
  `insert or ignore into chunk_text_checks (project_id, chunk_id)
   with t (trace_id) as (${tracesSql})
   select distinct ?1, c.chunk_id from t cross join trace_chunks c ${BY_TRACE} on c.project_id = ?1 and c.trace_id = t.trace_id`;

/** The first `limit` listed chunks. */
const checked = (limit: number) => `select chunk_id from chunk_text_checks where project_id = ?1 order by chunk_id limit ${limit}`;

/** Deletes the texts of the first `limit` listed chunks that no stored row uses. */
export const deleteUnusedTextsSql = (limit: number) =>
  `delete from chunk_texts where project_id = ?1 and chunk_id in (${checked(limit)}) and not exists (
     select 1 from trace_chunks c where c.project_id = ?1 and c.chunk_id = chunk_texts.chunk_id and ${TEXT_VERSION} = chunk_texts.source_doc_version)`;

/** Takes the first `limit` listed chunks off the list, after their texts were looked at. */
export const clearTextChecksSql = (limit: number) => `delete from chunk_text_checks where project_id = ?1 and chunk_id in (${checked(limit)})`;
