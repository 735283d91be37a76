/**
 * How a chunk's text is written: `markdown` (the repository's docs), read as it renders, its marks
 * dropped; `plain` (a BEIR collection's abstracts and passages), quoted as written: a `__init__`
 * or a `[Ca(2+)](i)` there is text, not emphasis or a link.
 */
export type TextFormat = 'markdown' | 'plain';

/** A passage the demo retrieves and cites: the unit a trace's chunks and a citation's `data-chunk-id` name. */
export interface Chunk {
  /** Stable id within the corpus; citations and traces carry it. */
  chunkId: string;
  /** The document the chunk was cut from, so feedback can reach the document's owner. */
  sourceDocId: string;
  /** A hash of the document's content: a stale-document flag can name the version users saw. */
  sourceDocVersion: string;
  /** The document's title, or its section path for a chunk of a longer document. */
  title: string;
  text: string;
  /** Plain when absent: only a document known to be markdown is read as such. */
  format?: TextFormat;
}

/**
 * The chunk as the reranker reads it and as its trace keeps it: the title, then the text. Both
 * must be the same, since retraining learns from what traces hold.
 */
export const passage = (c: Pick<Chunk, 'title' | 'text'>): string => (c.title ? `${c.title}\n${c.text}` : c.text);

/** How the chunk's text is read: plain unless it is known to be markdown. */
export const formatOf = (c: Pick<Chunk, 'format'>): TextFormat => c.format ?? 'plain';

/** A retrieval corpus: its chunks, and for a test collection its queries and judgments. */
export interface Corpus {
  /** Shown on the page: which knowledge base the answers come from. */
  name: string;
  chunks: Chunk[];
  /** Questions the page offers on an empty chat, so a newcomer has something to ask. */
  examples?: string[];
  /** Query id to text (test collections only). */
  queries?: Map<string, string>;
  /** Relevance judgments per split (`train`, `test`): query id to document id to grade. */
  qrels?: Map<string, Map<string, Map<string, number>>>;
  /** Documents whose id came again in the file (test collections only): the later one is kept. */
  duplicateIds?: number;
}
