/**
 * The evidence training gathers from its data: priors, engagement and the memory of judged
 * queries, with each query's own share kept apart so that the features of a training query can
 * leave it (and its rewordings) out. Without that, "the memory knows this chunk is relevant to
 * this very query" would look like a perfect feature in training and teach the model nothing
 * that transfers.
 */
import type { Evidence, Remembered } from '../reranker/features.ts';
import { questionTerms } from '../terms.ts';
import type { Confirmed, EngagementRow } from './data.ts';
import { examinationAt } from './examination.ts';

type Pair = [number, number];
const NONE: readonly [number, number] = [0, 0];

/**
 * Query keys this alike (cosine of their terms) are one question in other words, and training
 * leaves them out together: a question never asked has no rewordings in the traffic. Rewordings
 * (a word left out, a question frame) score 0.8 or more; different questions about the same
 * document mostly less, though a third of them are as alike (measured on SciFact's train claims).
 */
export const SAME_QUESTION = 0.8;

function add(map: Map<string, Pair>, key: string, i: 0 | 1, amount: number): Map<string, Pair> {
  const v = map.get(key) ?? [0, 0];
  v[i] += amount;
  return map.set(key, v);
}

function pushTo<T>(map: Map<string, T[]>, key: string, item: T) {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

interface Tagged extends Remembered {
  queryKey: string;
}

export class TrainingEvidence {
  readonly chunks = new Map<string, Pair>();
  readonly documents = new Map<string, Pair>();
  /** [engagements, impressions weighted by their rank's examination probability], per chunk and per document. */
  readonly engagement = new Map<string, Pair>();
  readonly documentEngagement = new Map<string, Pair>();
  readonly baseRate: number;
  private readonly ownChunks = new Map<string, Map<string, Pair>>();
  private readonly ownDocuments = new Map<string, Map<string, Pair>>();
  private readonly ownEngagement = new Map<string, Map<string, Pair>>();
  private readonly ownDocumentEngagement = new Map<string, Map<string, Pair>>();
  private readonly byChunk = new Map<string, Tagged[]>();
  private readonly byDocument = new Map<string, Tagged[]>();
  private readonly termsOfKey = new Map<string, ReadonlySet<string>>();

  constructor(
    confirmed: readonly Confirmed[],
    engagement: readonly EngagementRow[],
    queryEngagement: readonly EngagementRow[],
    examination: readonly number[],
    vectors?: ReadonlyMap<string, Float32Array>,
    shownByRank?: readonly number[],
  ) {
    const own = (maps: Map<string, Map<string, Pair>>, key: string) => {
      let m = maps.get(key);
      if (!m) maps.set(key, (m = new Map()));
      return m;
    };
    const termsOf = new Map<string, ReadonlySet<string>>();
    for (const c of confirmed) {
      const slot = c.relevance === 1 ? 0 : 1;
      add(this.chunks, c.chunkId, slot, 1);
      add(this.documents, c.sourceDocId, slot, 1);
      add(own(this.ownChunks, c.queryKey), c.chunkId, slot, 1);
      add(own(this.ownDocuments, c.queryKey), c.sourceDocId, slot, 1);
      let t = termsOf.get(c.queryKey);
      if (!t) termsOf.set(c.queryKey, (t = new Set(questionTerms(c.query))));
      const entry: Tagged = { terms: t, vector: vectors?.get(c.queryKey), relevance: c.relevance, queryKey: c.queryKey };
      pushTo(this.byChunk, c.chunkId, entry);
      pushTo(this.byDocument, c.sourceDocId, entry);
    }
    // Clicks over expected clicks: engagements against impressions weighted by how likely their
    // rank was examined, the position-based model's estimate of how attractive a chunk is.
    let engaged = 0;
    let examined = 0;
    for (const r of engagement) {
      const x = r.shown * examinationAt(examination, r.rank);
      add(this.engagement, r.chunkId, 0, r.engaged);
      add(this.engagement, r.chunkId, 1, x);
      if (r.sourceDocId !== undefined) {
        add(this.documentEngagement, r.sourceDocId, 0, r.engaged);
        add(this.documentEngagement, r.sourceDocId, 1, x);
      }
      engaged += r.engaged;
      examined += x;
    }
    for (const r of queryEngagement) {
      if (r.queryKey === undefined) continue;
      const x = r.shown * examinationAt(examination, r.rank);
      const m = own(this.ownEngagement, r.queryKey);
      add(m, r.chunkId, 0, r.engaged);
      add(m, r.chunkId, 1, x);
      if (r.sourceDocId !== undefined) {
        const d = own(this.ownDocumentEngagement, r.queryKey);
        add(d, r.sourceDocId, 0, r.engaged);
        add(d, r.sourceDocId, 1, x);
      }
    }
    // Rows from a collector that keeps impressions apart from ranks: the base rate from the totals by rank.
    if (shownByRank) examined = shownByRank.reduce((a, n, k) => a + n * examinationAt(examination, k + 1), 0);
    this.baseRate = examined > 0 ? engaged / examined : 0;
  }

  /** The evidence as a model would carry it after training on everything. */
  all(): Evidence {
    return this.without(undefined);
  }

  /**
   * Query keys that are `queryKey` in other words (itself included): those whose term cosine with
   * it reaches `SAME_QUESTION`. Scanning every key made training quadratic in its queries, so keys
   * are found by prefix filtering (as in set-similarity joins): two keys that alike share a term
   * among the rarest few of each, which is all the index holds; each found key is then checked.
   */
  private sameQuestion(queryKey: string): Set<string> {
    const own = this.keyTerms(queryKey);
    const { byTerm, prefix, order } = this.keyIndex();
    const found: string[] = [];
    const checked = new Set<string>([queryKey]);
    for (const t of prefix(queryKey))
      for (const k of byTerm.get(t) ?? []) {
        if (checked.has(k)) continue;
        checked.add(k);
        const other = this.keyTerms(k);
        let shared = 0;
        for (const x of other) if (own.has(x)) shared++;
        if (shared / Math.sqrt(other.size * own.size) >= SAME_QUESTION) found.push(k);
      }
    // In the keys' own order, so that what is left out is summed in the same order every time.
    return new Set([queryKey, ...found.sort((a, b) => order.get(a)! - order.get(b)!)]);
  }

  /** Every query key with evidence of its own, by the terms of its prefix; built once, on first use. */
  private index: { byTerm: Map<string, string[]>; prefix: (key: string) => string[]; order: Map<string, number> } | undefined;
  private keyIndex() {
    if (this.index) return this.index;
    const keys = new Set([...this.ownChunks.keys(), ...this.ownEngagement.keys()]);
    const df = new Map<string, number>();
    for (const k of keys) for (const t of this.keyTerms(k)) df.set(t, (df.get(t) ?? 0) + 1);
    // Cosine t between sets A and B needs |A ∩ B| >= t² |A| (and t² |B|): of A's terms in one
    // global order (rarest first), the first |A| - ceil(t² |A|) + 1 must then meet B's likewise.
    const needed = (size: number) => Math.ceil(SAME_QUESTION ** 2 * size - 1e-9);
    const prefix = (key: string) => {
      const sorted = [...this.keyTerms(key)].sort((x, y) => (df.get(x) ?? 0) - (df.get(y) ?? 0) || (x < y ? -1 : x > y ? 1 : 0));
      return sorted.slice(0, sorted.length - needed(sorted.length) + 1);
    };
    const byTerm = new Map<string, string[]>();
    for (const k of keys) for (const t of prefix(k)) pushTo(byTerm, t, k);
    this.index = { byTerm, prefix, order: new Map([...keys].map((k, i) => [k, i])) };
    return this.index;
  }

  /** A query key is its distinct terms, sorted (shared/terms.ts). */
  private keyTerms(queryKey: string): ReadonlySet<string> {
    let t = this.termsOfKey.get(queryKey);
    if (!t) this.termsOfKey.set(queryKey, (t = new Set(queryKey.split(' '))));
    return t;
  }

  /**
   * The evidence minus everything the query `queryKey` and its rewordings contributed: what users
   * asking them did, and what reviewers said of them, is what the model must learn to predict.
   */
  without(queryKey: string | undefined): Evidence {
    const leaveOut = queryKey === undefined ? new Set<string>() : this.sameQuestion(queryKey);
    const merged = (maps: Map<string, Map<string, Pair>>) => {
      const out = new Map<string, Pair>();
      for (const k of leaveOut) for (const [id, [a, b]] of maps.get(k) ?? []) add(add(out, id, 0, a), id, 1, b);
      return out;
    };
    const minus = (total: Map<string, Pair>, own: Map<string, Pair>, id: string): readonly [number, number] => {
      const t = total.get(id) ?? NONE;
      const o = own.get(id);
      return o ? [Math.max(0, t[0] - o[0]), Math.max(0, t[1] - o[1])] : t;
    };
    const chunks = merged(this.ownChunks);
    const documents = merged(this.ownDocuments);
    const engagement = merged(this.ownEngagement);
    const documentEngagement = merged(this.ownDocumentEngagement);
    const others = (list: Tagged[] | undefined) => (list ?? []).filter((e) => !leaveOut.has(e.queryKey));
    return {
      chunk: (id) => minus(this.chunks, chunks, id),
      document: (id) => minus(this.documents, documents, id),
      engagement: (id) => minus(this.engagement, engagement, id),
      documentEngagement: (id) => minus(this.documentEngagement, documentEngagement, id),
      baseRate: this.baseRate,
      remembered: (id) => others(this.byChunk.get(id)),
      rememberedOfDocument: (id) => others(this.byDocument.get(id)),
    };
  }
}
