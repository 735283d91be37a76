import { cut } from '../../shared/cut.ts';
import { type Chunk, formatOf } from '../corpus/chunk.ts';
import { readableText } from './sentences.ts';

/** One numbered source of an answer: `[n]` in the answer text points at it. */
export interface Citation {
  n: number;
  chunkId: string;
  sourceDocId: string;
  title: string;
  /** The start of the chunk as plain text (a markdown chunk's marks dropped), for the in-page preview. */
  snippet: string;
}

/**
 * Source text as an answer may carry it: its own reference markers (`[1]` of a paper's text) as
 * `(1)`, so that only the demo's citations are `[n]`, which the page links and the collector
 * counts as citing the n-th chunk.
 */
export const withoutCitationMarkers = (text: string): string => text.replace(/\[(\d+)\]/g, '($1)');

/** Longest preview, in characters. */
const SNIPPET_CHARS = 700;

/** The first `max` characters of `text`, cut at a word boundary (never inside a character), with an ellipsis when cut. */
export function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const start = cut(text, max);
  const space = start.lastIndexOf(' ');
  return `${(space > max * 0.6 ? start.slice(0, space) : start).trimEnd()}…`;
}

/**
 * The start of `text`, up to `SNIPPET_CHARS`; when the answer quoted a sentence (`quote`) that
 * lies further on, from the start of its line instead, so the preview shows what was cited.
 */
function snippet(text: string, quote?: string): string {
  const max = SNIPPET_CHARS;
  const at = quote ? text.indexOf(quote) : -1;
  if (at < 0 || at + quote!.length <= max) return head(text, max);
  const lineStart = text.lastIndexOf('\n', at) + 1;
  return `…${head(text.slice(at - lineStart < max / 2 ? lineStart : at), max)}`;
}

/** Citation `n` of an answer, its preview showing `quote` (a sentence the answer took from it) when given. */
export const citation = (n: number, chunk: Chunk, quote?: string): Citation => ({
  n,
  chunkId: chunk.chunkId,
  sourceDocId: chunk.sourceDocId,
  title: chunk.title || chunk.sourceDocId,
  // A document that is its title alone is previewed by it, not by nothing.
  snippet: snippet(readableText(chunk.text, formatOf(chunk)) || chunk.title, quote),
});
