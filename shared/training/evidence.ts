/**
 * The evidence training gathers from its data: priors, engagement and the memory of judged
 * queries, with each query's own share kept apart so that the features of a training query can
 * leave it out. Without that, "the memory knows this chunk is relevant to this very query" would
 * look like a perfect feature in training and teach the model nothing that transfers.
 */
import type { Evidence, Remembered } from '../reranker/features.ts';
import { terms } from '../terms.ts';
import type { Confirmed, EngagementRow } from './data.ts';
import { examinationAt } from './examination.ts';

type Pair = [number, number];
const NONE: readonly [number, number] = [0, 0];

function add(map: Map<string, Pair>, key: string, i: 0 | 1, amount: number) {
  const v = map.get(key) ?? [0, 0];
  v[i] += amount;
  map.set(key, v);
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
  readonly engagement = new Map<string, Pair>();
  readonly baseRate: number;
  private readonly ownChunks = new Map<string, Map<string, Pair>>();
  private readonly ownDocuments = new Map<string, Map<string, Pair>>();
  private readonly ownEngagement = new Map<string, Map<string, Pair>>();
  private readonly byChunk = new Map<string, Tagged[]>();
  private readonly byDocument = new Map<string, Tagged[]>();

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
      if (!t) termsOf.set(c.queryKey, (t = new Set(terms(c.query))));
      const entry: Tagged = { terms: t, vector: vectors?.get(c.queryKey), relevance: c.relevance, queryKey: c.queryKey };
      pushTo(this.byChunk, c.chunkId, entry);
      pushTo(this.byDocument, c.sourceDocId, entry);
    }
    let engaged = 0;
    let shown = 0;
    for (const r of engagement) {
      const weighted = r.engaged / examinationAt(examination, r.rank);
      add(this.engagement, r.chunkId, 0, weighted);
      add(this.engagement, r.chunkId, 1, r.shown);
      engaged += weighted;
      shown += r.shown;
    }
    for (const r of queryEngagement) {
      if (r.queryKey === undefined) continue;
      const m = own(this.ownEngagement, r.queryKey);
      add(m, r.chunkId, 0, r.engaged / examinationAt(examination, r.rank));
      add(m, r.chunkId, 1, r.shown);
    }
    if (shownByRank) shown = shownByRank.reduce((a, b) => a + b, 0);
    this.baseRate = shown > 0 ? engaged / shown : 0;
  }

  /** The evidence as a model would carry it after training on everything. */
  all(): Evidence {
    return this.without(undefined);
  }

  /** The evidence minus everything the query `queryKey` contributed. */
  without(queryKey: string | undefined): Evidence {
    const minus = (total: Map<string, Pair>, own: Map<string, Pair> | undefined, id: string): readonly [number, number] => {
      const t = total.get(id) ?? NONE;
      const o = own?.get(id);
      return o ? [Math.max(0, t[0] - o[0]), Math.max(0, t[1] - o[1])] : t;
    };
    const chunks = queryKey === undefined ? undefined : this.ownChunks.get(queryKey);
    const documents = queryKey === undefined ? undefined : this.ownDocuments.get(queryKey);
    const engagement = queryKey === undefined ? undefined : this.ownEngagement.get(queryKey);
    const others = (list: Tagged[] | undefined) => (list ?? []).filter((e) => e.queryKey !== queryKey);
    return {
      chunk: (id) => minus(this.chunks, chunks, id),
      document: (id) => minus(this.documents, documents, id),
      engagement: (id) => minus(this.engagement, engagement, id),
      baseRate: this.baseRate,
      remembered: (id) => others(this.byChunk.get(id)),
      rememberedOfDocument: (id) => others(this.byDocument.get(id)),
    };
  }
}
