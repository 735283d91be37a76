/**
 * Okapi BM25 over an in-memory inverted index: the lexical retrieval baseline of the demo and of
 * the loop's evaluations. Pure TypeScript (no Node or DOM APIs), so a Worker or a browser can
 * run it too. Scores as Lucene does (Anserini, Elasticsearch): idf = ln(1 + (N - df + 0.5) /
 * (df + 0.5)), a query term repeated counts once per occurrence, and the title is indexed with
 * the text as one field. With the default tokenizer, a query's lone character of an unspaced script
 * (a Chinese question of one character) is matched by the documents holding it, though their
 * terms are bigrams: their characters are indexed apart, counting in no document's length.
 */
import { isUnspacedCharacter, terms, termsAndCharacters } from './terms.ts';

/** What BM25 reads of a document. */
export interface Bm25Document {
  /** Indexed with the text as one field, as BEIR's BM25 baselines do. */
  title?: string;
  text: string;
}

export interface Bm25Options {
  /** Term-frequency saturation: higher lets repeated terms count for longer. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b?: number;
  /** Splits text into terms; the same function must serve documents and queries. */
  tokenize?: (text: string) => string[];
}

/** One document BM25 found, with its score; hits come best first. */
export interface Bm25Hit<D> {
  doc: D;
  /** Position of `doc` in the indexed list, a stable id when documents have none. */
  index: number;
  score: number;
}

/** Anserini's defaults, which BEIR's flat BM25 baselines use. */
export const BM25_DEFAULTS = { k1: 0.9, b: 0.4 } as const;

interface Postings {
  docs: Uint32Array;
  tfs: Uint32Array;
}

export class Bm25Index<D extends Bm25Document> {
  readonly k1: number;
  readonly b: number;
  private readonly tokenize: (text: string) => string[];
  private readonly docs: readonly D[];
  private readonly postings = new Map<string, Postings>();
  /** The characters of unspaced scripts documents hold, apart from their terms (default tokenizer only). */
  private readonly characterPostings = new Map<string, Postings>();
  /** Per document, the length part of the BM25 denominator: k1 * (1 - b + b * len / avgLen). */
  private readonly lengthNorm: Float64Array;
  /** Scratch accumulator, one slot per document, reused by every search. */
  private readonly scores: Float64Array;
  /** Scratch marks of the documents a search touched, reused likewise. */
  private readonly touchedMark: Uint8Array;

  constructor(docs: readonly D[], options: Bm25Options = {}) {
    this.k1 = options.k1 ?? BM25_DEFAULTS.k1;
    this.b = options.b ?? BM25_DEFAULTS.b;
    this.tokenize = options.tokenize ?? terms;
    this.docs = docs;
    const n = docs.length;
    const lengths = new Uint32Array(n);
    // Built as growable arrays first, then packed into typed arrays for fast scans.
    const building = new Map<string, { docs: number[]; tfs: number[] }>();
    const buildingCharacters = new Map<string, { docs: number[]; tfs: number[] }>();
    const withCharacters = this.tokenize === terms;
    for (let d = 0; d < n; d++) {
      const doc = docs[d]!;
      const text = doc.title ? `${doc.title}\n${doc.text}` : doc.text;
      const { terms: tokens, characters } = withCharacters ? termsAndCharacters(text) : { terms: this.tokenize(text), characters: [] };
      lengths[d] = tokens.length;
      post(building, d, tokens);
      if (characters.length) post(buildingCharacters, d, characters);
    }
    for (const [t, p] of building) this.postings.set(t, { docs: Uint32Array.from(p.docs), tfs: Uint32Array.from(p.tfs) });
    for (const [c, p] of buildingCharacters) this.characterPostings.set(c, { docs: Uint32Array.from(p.docs), tfs: Uint32Array.from(p.tfs) });
    let total = 0;
    for (const len of lengths) total += len;
    const avgLength = n ? total / n : 0;
    this.lengthNorm = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      this.lengthNorm[d] = this.k1 * (1 - this.b + (avgLength ? (this.b * lengths[d]!) / avgLength : 0));
    }
    this.scores = new Float64Array(n);
    this.touchedMark = new Uint8Array(n);
  }

  /** Number of documents indexed. */
  get size(): number {
    return this.docs.length;
  }

  /** A term's postings: a lone character of an unspaced script's are those of the documents holding it, in a bigram or alone. */
  private postingsOf(term: string): Postings | undefined {
    return (this.characterPostings.size && isUnspacedCharacter(term) ? this.characterPostings : this.postings).get(term);
  }

  /** Inverse document frequency of one term (0 for a term no document has). */
  idf(term: string): number {
    const df = this.postingsOf(term)?.docs.length ?? 0;
    return df === 0 ? 0 : Math.log(1 + (this.docs.length - df + 0.5) / (df + 0.5));
  }

  /** A query's terms, each weighted by how often it occurs: what `search` scores with. */
  queryTerms(query: string): Map<string, number> {
    const weights = new Map<string, number>();
    for (const t of this.tokenize(query)) weights.set(t, (weights.get(t) ?? 0) + 1);
    return weights;
  }

  /** The `k` best documents for `query`, best first; ties go to the earlier document. Documents sharing no term are never returned. */
  search(query: string, k = 10): Bm25Hit<D>[] {
    return this.searchTerms(this.queryTerms(query), k);
  }

  /** As `search`, for terms weighted by the caller (a term of weight 0.5 counts half an occurrence; one not above 0, or not finite, counts for nothing). */
  searchTerms(weights: ReadonlyMap<string, number>, k = 10): Bm25Hit<D>[] {
    const { scores, touchedMark, lengthNorm, k1 } = this;
    const touched: number[] = [];
    for (const [term, count] of weights) {
      const p = this.postingsOf(term);
      if (!p || !(count > 0) || !Number.isFinite(count)) continue;
      const w = count * this.idf(term) * (k1 + 1);
      for (let i = 0; i < p.docs.length; i++) {
        const d = p.docs[i]!;
        const tf = p.tfs[i]!;
        if (touchedMark[d] === 0) {
          touchedMark[d] = 1;
          touched.push(d);
        }
        scores[d]! += (w * tf) / (tf + lengthNorm[d]!);
      }
    }
    // Mathematically equal scores summed in another order differ in the last bits: rounding makes
    // them equal, so ties really go to the earlier document.
    for (const d of touched) scores[d] = roundScore(scores[d]!);
    const hits = topK(touched, scores, k).map((d) => ({ doc: this.docs[d]!, index: d, score: scores[d]! }));
    for (const d of touched) {
      scores[d] = 0;
      touchedMark[d] = 0;
    }
    return hits;
  }
}

/** Adds document `d`'s tokens to the postings being built, one entry a distinct token with its count. */
function post(building: Map<string, { docs: number[]; tfs: number[] }>, d: number, tokens: readonly string[]): void {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const [t, tf] of counts) {
    let p = building.get(t);
    if (!p) building.set(t, (p = { docs: [], tfs: [] }));
    p.docs.push(d);
    p.tfs.push(tf);
  }
}

/** Scores to 1e-9: far finer than any difference that matters, coarser than summation noise. */
export const roundScore = (x: number): number => Math.round(x * 1e9) / 1e9;

/** The k highest-scoring of `candidates`, best first (ties: lower index first), by a bounded min-heap. */
function topK(candidates: readonly number[], scores: Float64Array, k: number): number[] {
  if (k <= 0) return [];
  // `a` ranks below `b`: lower score, or the same score and a later document.
  const below = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const heap: number[] = [];
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && below(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && below(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const d of candidates) {
    if (heap.length < k) {
      heap.push(d);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!below(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (below(heap[0]!, d)) {
      heap[0] = d;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (below(a, b) ? 1 : below(b, a) ? -1 : 0));
}
