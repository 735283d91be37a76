/** SQL joining chunk rows (alias `c`) to their text (alias `ct`): chunk_texts is keyed by chunk id and document version. */
export const JOIN_CHUNK_TEXT = `join chunk_texts ct on ct.project_id = c.project_id and ct.chunk_id = c.chunk_id and ct.source_doc_version = coalesce(c.source_doc_version, '')`;
