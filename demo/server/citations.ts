import type { Chunk } from '../corpus/chunk.ts';
import { readableText } from './sentences.ts';

/** One numbered source of an answer: `[n]` in the answer text points at it. */
export interface Citation {
  n: number;
  chunkId: string;
  sourceDocId: string;
  title: string;
  /** The start of the chunk as plain text (markdown's marks dropped), for the in-page preview. */
  snippet: string;
}

export const SNIPPET_CHARS = 700;

/** The first `max` characters of `text`, cut at a word boundary, with an ellipsis when cut. */
export function snippet(text: string, max = SNIPPET_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export const citation = (n: number, chunk: Chunk): Citation => ({
  n,
  chunkId: chunk.chunkId,
  sourceDocId: chunk.sourceDocId,
  title: chunk.title || chunk.sourceDocId,
  snippet: snippet(readableText(chunk.text)),
});
