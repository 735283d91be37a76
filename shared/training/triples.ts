/**
 * Confirmed (query, positive, hard negative) triples, for teams that fine-tune a cross-encoder
 * elsewhere: one object per line with `query`, `positive` and `negative` text, the (anchor,
 * positive, negative) layout sentence-transformers' trainers read from JSONL. Every confirmed
 * negative of a query is paired with every confirmed positive of it; texts come from the
 * candidates the query was answered with, as training reads them: another question's answer may
 * hold the same chunk in another document version.
 */
import type { TrainingData } from './data.ts';
import { consolidate } from './train.ts';

export interface Triple {
  query: string;
  positive: string;
  negative: string;
}

export function trainingTriples(data: TrainingData): Triple[] {
  const pair = (queryKey: string, chunkId: string) => `${queryKey}\u0000${chunkId}`;
  const text = new Map<string, string>();
  for (const list of data.lists) for (const c of list.candidates) text.set(pair(list.queryKey, c.chunkId), c.text);
  const byQuery = new Map<string, { query: string; positives: string[]; negatives: string[] }>();
  for (const c of consolidate(data.confirmed)) {
    const t = text.get(pair(c.queryKey, c.chunkId));
    if (t === undefined) continue;
    const q = byQuery.get(c.queryKey) ?? { query: c.query, positives: [], negatives: [] };
    (c.relevance === 1 ? q.positives : q.negatives).push(t);
    byQuery.set(c.queryKey, q);
  }
  return [...byQuery.values()].flatMap((q) => q.positives.flatMap((positive) => q.negatives.map((negative) => ({ query: q.query, positive, negative }))));
}
