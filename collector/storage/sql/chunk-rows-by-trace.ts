/**
 * Reads chunk rows (`trace_chunks`) on their key, by trace: put after the table's name where rows
 * are looked up by trace. Without statistics SQLite may take the chunk index searched on the
 * project alone over the key searched on project and trace (it did while that index covered these
 * statements' columns): every chunk row of the project for each trace.
 */
export const BY_TRACE = 'indexed by sqlite_autoindex_trace_chunks_1';
