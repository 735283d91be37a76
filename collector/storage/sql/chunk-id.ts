/**
 * The chunk an event is about (citation clicks and dwell, source copies, wrong-source flags), as
 * SQL. The expression index `feedback_chunk` is built on exactly this expression, so a query
 * must spell it this way to use it.
 */
export const CHUNK_ID_SQL = (detail = 'detail') => `json_extract(${detail}, '$.chunkId')`;
