/**
 * The collection as the simulation splits it: the BEIR **train** queries feed traffic, except a
 * validation share carved out by a stable hash of the query id (never asked, used to tune and to
 * report generalisation) and, when asked for, a curated share (never asked either: the team's own
 * judged questions, which the gate decides on); the **test** queries are only ever evaluated. A train query in the same
 * words as a test or validation query (the same `queryKey`) is not asked either, nor is a rewording
 * in their words (`heldOutKeys`). Works for any
 * directory in BEIR layout with `qrels/train.tsv` and `qrels/test.tsv`.
 */
import { loadBeir } from '../../demo/corpus/beir.ts';
import type { Chunk, Corpus } from '../../demo/corpus/chunk.ts';
import { queryKey } from '../../shared/terms.ts';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';
import { stableHash } from './random.ts';

export interface JudgedQuery {
  id: string;
  text: string;
  /** Relevant document ids (grade > 0), as the qrels give them. */
  relevant: ReadonlySet<string>;
  /** Every judged document with its grade. */
  judged: ReadonlyMap<string, number>;
}

/** What the split left out, so that a report can say it. */
export interface SplitExclusions {
  /** Train queries that are test queries, by id or in the same words (`queryKey`). */
  sameAsTest: number;
  /** Train queries asked in the same words as a validation query. */
  sameAsValidation: number;
  /** Train queries asked in the same words as a curated one. */
  sameAsCurated: number;
  /** Train queries longer than a trace keeps (`MAX_QUERY_CHARS`): not asked, since the demo would refuse them. */
  tooLongToAsk: number;
  /**
   * Judged queries left out: train ones without a text in queries.jsonl or a document graded above 0
   * (no user could be simulated asking them), test ones without a text.
   */
  unusable: { train: number; test: number };
  /** Test queries no document is relevant for: kept, each scoring 0 whatever the ranking, as BEIR's evaluation counts them. */
  noneRelevantInTest: number;
  /**
   * Relevant judgements of each split's usable queries naming a document corpus.jsonl lacks: kept,
   * as trec_eval keeps them (no ranking finds them), but said, since ids that do not match are a mistake.
   */
  notInCorpus: { train: number; test: number };
}

export interface Collection {
  name: string;
  corpus: Corpus;
  /** Train queries that users ask. */
  traffic: JudgedQuery[];
  /** Train queries never asked: tuning and generalisation. */
  validation: JudgedQuery[];
  /** Train queries never asked: the team's curated eval suite (empty unless a share is asked for). */
  curated: JudgedQuery[];
  /** Test queries: evaluation only. */
  test: JudgedQuery[];
  /** Query keys of the test, validation and curated queries: no text users type may have one, reworded or not. */
  heldOutKeys: ReadonlySet<string>;
  /** Document id to its title and text, for corrections that quote the right source. */
  documents: ReadonlyMap<string, Pick<Chunk, 'title' | 'text' | 'format'>>;
  excluded: SplitExclusions;
}

/**
 * How many of the queries' relevant judgements name a document the corpus lacks; none found at all
 * is refused: the qrels then judge another collection, or its ids written otherwise, and every
 * figure would read 0 without a word why.
 */
function notInCorpus(corpus: Corpus, ids: ReadonlyMap<string, unknown>, split: string, queries: readonly JudgedQuery[]): number {
  const relevant = queries.flatMap((q) => [...q.relevant]);
  const missing = relevant.filter((d) => !ids.has(d));
  if (relevant.length && missing.length === relevant.length)
    throw new Error(
      `${corpus.name}: none of the ${relevant.length} documents qrels/${split}.tsv judges relevant is in corpus.jsonl (such as ${JSON.stringify(missing[0])}): its corpus-id column must hold corpus.jsonl's "_id"s`,
    );
  return missing.length;
}

/**
 * A split's judged queries that have a text and, with `relevantOnly`, a relevant document, and how
 * many judged ones are left out. Test queries are all kept: BEIR's evaluation counts one no document
 * is relevant for as 0, so the figures compare with published ones, and its words stay out of traffic.
 */
function judgedQueries(corpus: Corpus, split: string, relevantOnly: boolean): { queries: JudgedQuery[]; unusable: number } {
  const qrels = corpus.qrels?.get(split);
  if (!qrels) throw new Error(`${corpus.name} has no qrels/${split}.tsv`);
  const queries: JudgedQuery[] = [];
  for (const [id, judged] of qrels) {
    const text = corpus.queries?.get(id);
    const relevant = new Set([...judged].filter(([, g]) => g > 0).map(([d]) => d));
    if (text?.trim() && (relevant.size || !relevantOnly)) queries.push({ id, text, relevant, judged });
  }
  queries.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  return { queries, unusable: qrels.size - queries.length };
}

export async function loadCollection(dir: string, validationShare: number, curatedShare = 0): Promise<Collection> {
  const corpus = await loadBeir(dir);
  const { queries: train, unusable: trainUnusable } = judgedQueries(corpus, 'train', true);
  const { queries: test, unusable: testUnusable } = judgedQueries(corpus, 'test', false);
  for (const [split, queries] of [
    ['train', train],
    ['test', test],
  ] as const)
    if (!queries.some((q) => q.relevant.size)) throw new Error(`${corpus.name}: no ${split} query has a text in queries.jsonl and a document graded above 0`);
  const documents = new Map(corpus.chunks.map((c) => [c.sourceDocId, c]));
  const missing = { train: notInCorpus(corpus, documents, 'train', train), test: notInCorpus(corpus, documents, 'test', test) };
  // Test queries never reach the loop: neither by id, nor in the same words under another id (the
  // product groups questions by their terms, so the review would answer the test question too).
  const testIds = new Set(test.map((q) => q.id));
  const testKeys = new Set(test.map((q) => queryKey(q.text)));
  const usable = train.filter((q) => !testIds.has(q.id) && !testKeys.has(queryKey(q.text)));
  const isValidation = (q: JudgedQuery) => stableHash(`validation:${q.id}`) < validationShare;
  const validation = usable.filter(isValidation);
  // Nor are validation questions asked: a train query in their words stays out of traffic.
  const validationKeys = new Set(validation.map((q) => queryKey(q.text)));
  const notValidation = usable.filter((q) => !isValidation(q) && !validationKeys.has(queryKey(q.text)));
  const curated = notValidation.filter((q) => stableHash(`curated:${q.id}`) < curatedShare && q.text.length <= MAX_QUERY_CHARS);
  const curatedIds = new Set(curated.map((q) => q.id));
  const curatedKeys = new Set(curated.map((q) => queryKey(q.text)));
  const notCurated = notValidation.filter((q) => !curatedIds.has(q.id) && !curatedKeys.has(queryKey(q.text)));
  const traffic = notCurated.filter((q) => q.text.length <= MAX_QUERY_CHARS);
  // Users need a question to ask: a train split that only repeats the test one (a copied test.tsv) leaves none.
  if (!traffic.length)
    throw new Error(
      `${corpus.name}: no train query is left for users to ask (of ${train.length}, ${train.length - usable.length} are test queries by id or in the same words, ${validation.length} held out for validation, ${curated.length} curated, the rest in their words or too long)`,
    );
  return {
    name: corpus.name,
    corpus,
    traffic,
    validation,
    curated,
    test,
    heldOutKeys: new Set([...testKeys, ...validationKeys, ...curatedKeys]),
    documents,
    excluded: {
      sameAsTest: train.length - usable.length,
      sameAsValidation: usable.length - validation.length - notValidation.length,
      sameAsCurated: notValidation.length - curated.length - notCurated.length,
      tooLongToAsk: notCurated.length - traffic.length,
      unusable: { train: trainUnusable, test: testUnusable },
      noneRelevantInTest: test.filter((q) => !q.relevant.size).length,
      notInCorpus: missing,
    },
  };
}

/**
 * Refuses a collection whose validation share holds no query, for a command that chooses on
 * validation (loop:ceiling's weights): over none, every choice scores 0 and the first is taken without a word.
 */
export function requireValidation(c: Collection, validationShare: number): void {
  if (!c.validation.length)
    throw new Error(
      `${c.name}: the validation share (${validationShare} of ${c.traffic.length + c.validation.length + c.curated.length + c.excluded.sameAsValidation + c.excluded.sameAsCurated + c.excluded.tooLongToAsk} usable train queries) holds none, and the weights are chosen on validation: give a larger --validation-share`,
    );
}
