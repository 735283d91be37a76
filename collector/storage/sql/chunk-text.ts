/**
 * Chunk texts are stored once per project, chunk id and document version; a chunk without a
 * version is stored under ''.
 */

/** The version a chunk row's text is stored under, as SQL over chunk rows aliased `c`. */
export const TEXT_VERSION = `coalesce(c.source_doc_version, '')`;

/** SQL joining chunk rows (alias `c`) to their text (alias `ct`): chunk_texts is keyed by chunk id and document version. */
export const JOIN_CHUNK_TEXT = `join chunk_texts ct on ct.project_id = c.project_id and ct.chunk_id = c.chunk_id and ct.source_doc_version = ${TEXT_VERSION}`;

/** The texts of (chunk id, version as stored) pairs, 500 a statement; pairs without a stored text are left out. */
export async function chunkTextsOf(
  d1: D1Database,
  projectId: string,
  keys: readonly { chunkId: string; version: string }[],
): Promise<{ chunkId: string; version: string; text: string }[]> {
  const out: { chunkId: string; version: string; text: string }[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    const { results } = await d1
      .prepare(
        `select ct.chunk_id as chunkId, ct.source_doc_version as version, ct.text from json_each(?2) k
         cross join chunk_texts ct on ct.project_id = ?1 and ct.chunk_id = k.value ->> 'chunkId' and ct.source_doc_version = k.value ->> 'version'`,
      )
      .bind(projectId, JSON.stringify(keys.slice(i, i + 500).map(({ chunkId, version }) => ({ chunkId, version }))))
      .all<{ chunkId: string; version: string; text: string }>();
    out.push(...results);
  }
  return out;
}
