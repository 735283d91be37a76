/**
 * The collection as the simulation splits it: the BEIR **train** queries feed traffic, except a
 * validation share carved out by a stable hash of the query id (never asked, used to tune and to
 * report generalisation); the **test** queries are only ever evaluated. Works for any directory in
 * BEIR layout with `qrels/train.tsv` and `qrels/test.tsv`.
 */
import { loadBeir } from '../../demo/corpus/beir.ts';
import type { Corpus } from '../../demo/corpus/chunk.ts';
import { stableHash } from './random.ts';

export interface JudgedQuery {
  id: string;
  text: string;
  /** Relevant document ids (grade > 0), as the qrels give them. */
  relevant: ReadonlySet<string>;
  /** Every judged document with its grade. */
  judged: ReadonlyMap<string, number>;
}

export interface Collection {
  name: string;
  corpus: Corpus;
  /** Train queries that users ask. */
  traffic: JudgedQuery[];
  /** Train queries never asked: tuning and generalisation. */
  validation: JudgedQuery[];
  /** Test queries: evaluation only. */
  test: JudgedQuery[];
  /** Document id to its title and text, for corrections that quote the right source. */
  documents: ReadonlyMap<string, { title: string; text: string }>;
}

function judgedQueries(corpus: Corpus, split: string): JudgedQuery[] {
  const qrels = corpus.qrels?.get(split);
  if (!qrels) throw new Error(`${corpus.name} has no qrels/${split}.tsv`);
  const out: JudgedQuery[] = [];
  for (const [id, judged] of qrels) {
    const text = corpus.queries?.get(id);
    const relevant = new Set([...judged].filter(([, g]) => g > 0).map(([d]) => d));
    if (text && relevant.size) out.push({ id, text, relevant, judged });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
}

export async function loadCollection(dir: string, validationShare: number): Promise<Collection> {
  const corpus = await loadBeir(dir);
  const train = judgedQueries(corpus, 'train');
  const test = judgedQueries(corpus, 'test');
  const testIds = new Set(test.map((q) => q.id));
  // A query id in both splits stays out of traffic: test queries never reach the loop.
  const usable = train.filter((q) => !testIds.has(q.id));
  const isValidation = (q: JudgedQuery) => stableHash(`validation:${q.id}`) < validationShare;
  return {
    name: corpus.name,
    corpus,
    traffic: usable.filter((q) => !isValidation(q)),
    validation: usable.filter(isValidation),
    test,
    documents: new Map(corpus.chunks.map((c) => [c.sourceDocId, { title: c.title, text: c.text }])),
  };
}
