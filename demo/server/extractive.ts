/**
 * The demo's answerer when no language model is configured: the sentences of the top chunks that
 * best cover the question, each followed by the number of the chunk it came from (its position in
 * the chunks given, as a language model numbers its sources). Quoting keeps
 * every answer faithful to its sources, so feedback on it is feedback on retrieval.
 */
import { questionTerms, termSet } from '../../shared/terms.ts';
import { type Chunk, formatOf } from '../corpus/chunk.ts';
import { type Citation, citation, head, withoutCitationMarkers } from './citations.ts';
import { type Sentence, sentenceParts } from './sentences.ts';

export const EXTRACTIVE_MODEL = 'demo-extractive';

export interface ExtractiveOptions {
  /** Most sentences in an answer. */
  maxSentences?: number;
  /** Answer length, in characters, past which no further sentence is added. */
  maxChars?: number;
  /** Sentences not to quote again (those of the answers a regenerate replaces). */
  exclude?: ReadonlySet<string>;
}

export interface ExtractiveAnswer {
  /** The quoted sentences, each followed by ` [n]`: n is the chunk's 1-based position in the list given. */
  answer: string;
  citations: Citation[];
  /** The sentences quoted, so a regenerate can avoid them. */
  quoted: string[];
}

/**
 * What an answer quotes for: a question, whose distinct terms say what it asks (a pushback's words
 * are nothing to quote), or weighted terms (a follow-up naming nothing of its own reads what it was
 * searched with: the turn before's terms, at a lower weight).
 */
export type Reads = string | ReadonlyMap<string, number>;

/** Said when no sentence of the chunks shares a term with the question. */
export const NO_ANSWER = 'None of the retrieved passages answers this. Try other words, or ask about something the documents cover.';

/** Said before an answer a regenerate could only quote again: the sources hold no other. */
export const SAME_AGAIN = 'The sources hold no other answer to this; the same passages again:';

/** A later chunk's sentences count for less: retrieval (or the reranker) already ranked them lower. */
const rankWeight = (rank: number) => 1 / (1 + 0.25 * rank);
/** A table row quoted alone has lost its header: prose covering as much of the question reads better. */
const TABLE_ROW_WEIGHT = 0.5;
/** A sentence ending in a colon leads into what follows it, which a quote of it alone leaves out. */
const LEAD_IN_WEIGHT = 0.5;
/**
 * A sentence scoring less than this share of the best one (its coverage of the question, weighed
 * as above) is not quoted after it: one that merely shares a common word with the question
 * ("numbers" of "phone numbers") would pad the answer.
 */
const MIN_SHARE_OF_BEST = 0.5;
/**
 * The most of one sentence an answer quotes (SciFact's longest is 1,670 characters): a document
 * with no sentence ends would otherwise be quoted whole, its citation past what a trace keeps.
 */
const MAX_QUOTE_CHARS = 2_000;

/**
 * A chunk's sentences; of a document with a title and no text (a BEIR document can be its title
 * alone, which retrieval found it by), its title, whatever its length: it is all the document says.
 */
function quotable(chunk: Chunk): Sentence[] {
  if (chunk.text.trim() || !chunk.title.trim()) return sentenceParts(chunk.text, formatOf(chunk));
  return [{ text: chunk.title.replace(/\s+/g, ' ').trim(), tableRow: false }];
}

/**
 * `weight(term)` says how much a query term matters (BM25's idf), times the term's own weight (1
 * for a question's): a sentence's score is the share of the query's weight it covers, times its
 * chunk's rank weight.
 */
export function extractiveAnswer(query: Reads, chunks: readonly Chunk[], weight: (term: string) => number, options: ExtractiveOptions = {}): ExtractiveAnswer {
  const { maxSentences = 3, maxChars = 700, exclude = new Set<string>() } = options;
  const asked = typeof query === 'string' ? new Map(questionTerms(query).map((t) => [t, 1])) : query;
  const queryTerms = [...asked].map(([t, w]) => [t, w * weight(t)] as const);
  const total = queryTerms.reduce((s, [, w]) => s + w, 0);
  if (total === 0) return { answer: NO_ANSWER, citations: [], quoted: [] };
  const candidates = chunks.flatMap((chunk, rank) =>
    quotable(chunk).map(({ text, tableRow }, position) => {
      const own = termSet(text);
      const covered = queryTerms.reduce((s, [t, w]) => s + (own.has(t) ? w : 0), 0);
      const form = (tableRow ? TABLE_ROW_WEIGHT : 1) * (/[:：]$/.test(text) ? LEAD_IN_WEIGHT : 1);
      return { text, chunk, rank, position, score: (covered / total) * rankWeight(rank) * form };
    }),
  );
  const scored = candidates.filter((c) => c.score > 0).sort((a, b) => b.score - a.score || a.rank - b.rank || a.position - b.position);
  const fresh = scored.filter((c) => !exclude.has(c.text));
  const choices = fresh.length ? fresh : scored;
  // Half the best of what may be quoted: a regenerate measures against the best sentence it has left.
  const pool = choices.filter((c) => c.score >= MIN_SHARE_OF_BEST * choices[0]!.score);
  const picked: typeof pool = [];
  let length = 0;
  for (const c of pool) {
    if (picked.length >= maxSentences) break;
    // A sentence too long to fit gives way to a shorter one that still covers the question.
    if ((picked.length && length + c.text.length > maxChars) || picked.some((p) => p.text === c.text)) continue;
    picked.push(c);
    length += c.text.length;
  }
  if (!picked.length) return { answer: NO_ANSWER, citations: [], quoted: [] };
  // `[n]` is the n-th chunk the answer was made from, as a language model cites its numbered sources
  // and as the collector reads an answer; the sources are listed in that order.
  const cited = new Map<number, Citation>();
  const parts = picked.map((c) => {
    const n = c.rank + 1;
    if (!cited.has(n)) cited.set(n, citation(n, c.chunk, c.text));
    return `${head(withoutCitationMarkers(c.text), MAX_QUOTE_CHARS)} [${n}]`;
  });
  const citations = [...cited.values()].sort((a, b) => a.n - b.n);
  const answer = parts.join(' ');
  return { answer: fresh.length || !exclude.size ? answer : `${SAME_AGAIN} ${answer}`, citations, quoted: picked.map((c) => c.text) };
}
