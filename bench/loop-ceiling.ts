/**
 * `npm run loop:ceiling`: what the loop's kind of evidence gives when used simply. What transfers
 * from the questions users asked to a new one is mostly a document being relevant to some other
 * question; an oracle that knows every document relevant to any traffic query (from the train
 * judgements) adds one bonus to those on top of retrieval's scaled score; the same oracle limited to
 * the documents retrieval ranks within a depth for the question they answer says how deep the
 * loop must look (users see, click and flag only the top few); and one that knows only the
 * documents a run's reviewers confirmed (`--training-data week-N.json`, written by `npm run
 * loop:eval -- --training-data DIR`) shows the loop's own coverage. The bonus weight is chosen on
 * validation (so validation's figure is optimistic); test is measured once, at that weight.
 * Flags: --data DIR, --retrieve-k, --training-data FILE.
 */
import { readFileSync } from 'node:fs';
import type { Scored } from '../demo/server/rerank.ts';
import { Bm25Index } from '../shared/bm25.ts';
import type { TrainingData } from '../shared/training/data.ts';
import { loadCollection } from './loop-eval/collection.ts';
import { evaluator } from './loop-eval/evaluate.ts';
import { paramsFromArgs } from './loop-eval/params.ts';

const WEIGHTS = [0, 0.1, 0.2, 0.3, 0.5, 1];
/** Depths of retrieval's list for the oracle limited to what users could have been shown. */
const DEPTHS = [1, 3, 5, 10, 30];

const params = paramsFromArgs(process.argv.slice(2));
const collection = await loadCollection(params.data, params.validationShare);
const ev = evaluator(collection.corpus.chunks, params.retrieveK);

/** Retrieval's score scaled to [0, 1] over the candidates, plus `weight` for a document in `known`. */
const withBonus =
  (known: ReadonlySet<string>, weight: number) =>
  (_query: string, candidates: Scored[]): Scored[] => {
    const scores = candidates.map((c) => c.score);
    const [min, max] = [Math.min(...scores), Math.max(...scores)];
    const value = (c: Scored) => (max > min ? (c.score - min) / (max - min) : 1) + (known.has(c.chunk.sourceDocId) ? weight : 0);
    return candidates
      .map((c, i) => ({ c, i, v: value(c) }))
      .sort((a, b) => b.v - a.v || a.i - b.i)
      .map(({ c }) => c);
  };

async function ceiling(name: string, known: ReadonlySet<string>) {
  const validation: string[] = [];
  let best = { weight: 0, ndcg10: Number.NEGATIVE_INFINITY };
  for (const weight of WEIGHTS) {
    const m = await ev.reordered(collection.validation, withBonus(known, weight));
    validation.push(`${weight}: ${m.ndcg10.toFixed(3)}`);
    if (m.ndcg10 > best.ndcg10) best = { weight, ndcg10: m.ndcg10 };
  }
  const test = await ev.reordered(collection.test, withBonus(known, best.weight));
  console.log(`${name}: ${known.size} documents`);
  console.log(`  validation nDCG@10 by bonus weight: ${validation.join(', ')}`);
  console.log(`  at ${best.weight}: validation ${best.ndcg10.toFixed(3)}, test ${test.ndcg10.toFixed(3)}`);
}

const [bm25Validation, bm25Test] = [await ev.bm25(collection.validation), await ev.bm25(collection.test)];
console.log(`${collection.name}: BM25 validation nDCG@10 ${bm25Validation.ndcg10.toFixed(3)}, test ${bm25Test.ndcg10.toFixed(3)}`);
await ceiling('documents relevant to some traffic query (oracle)', new Set(collection.traffic.flatMap((q) => [...q.relevant])));
const index = new Bm25Index(collection.corpus.chunks);
const trafficHits = collection.traffic.map((q) => ({ q, docs: index.search(q.text, Math.max(...DEPTHS)).map((h) => h.doc.sourceDocId) }));
for (const depth of DEPTHS) {
  const known = new Set(trafficHits.flatMap(({ q, docs }) => docs.slice(0, depth).filter((d) => q.relevant.has(d))));
  await ceiling(`the oracle's documents that retrieval ranks in the top ${depth} for a question they answer`, known);
}
if (params.trainingData) {
  const { data } = JSON.parse(readFileSync(params.trainingData, 'utf8')) as { data: TrainingData };
  await ceiling(
    `documents reviewers confirmed relevant (${params.trainingData})`,
    new Set(data.confirmed.filter((c) => c.relevance === 1).map((c) => c.sourceDocId)),
  );
}
