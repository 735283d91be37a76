/**
 * `npm run loop:ceiling`: what the loop's kind of evidence gives when used simply. What transfers
 * from the questions users asked to a new one is mostly a document being relevant to some other
 * question. Two simple uses of knowing that, each on top of retrieval's scaled score: a flat
 * bonus for every such document, and a memory that adds, per document, its likeness (cosine of
 * terms) to the most alike question it answered. Knowledge comes from an oracle that knows every
 * document relevant to any traffic query (from the train judgements); the same oracle limited to
 * the documents retrieval ranks within a depth for the question they answer says how deep the
 * loop must look (users see, click and flag only the top few); and `--training-data week-N.json`
 * (written by `npm run loop:eval -- --training-data DIR`) gives what a run's reviewers confirmed
 * on training questions: the loop's own coverage, and what the gate's eval sets in that file say
 * of the same uses (nDCG@5, as the gate scores). Weights are chosen on validation (so
 * validation's figure is optimistic); test is measured once, at the chosen weight.
 * Flags: --data DIR, --validation-share, --retrieve-k, --training-data FILE (LOOP_CEILING_HELP).
 */
import { readFileSync } from 'node:fs';
import type { Scored } from '../demo/server/rerank.ts';
import { failInOneLine, helpAsked } from '../scripts/cli.ts';
import { Bm25Index } from '../shared/bm25.ts';
import { termCosine } from '../shared/reranker/features.ts';
import { terms } from '../shared/terms.ts';
import type { TrainingData } from '../shared/training/data.ts';
import { type EvalQuery, evaluate as evaluateOnEvalSets } from '../shared/training/gate.ts';
import { loadCollection, requireValidation } from './loop-eval/collection.ts';
import { evaluator } from './loop-eval/evaluate.ts';
import { ceilingParamsFromArgs, LOOP_CEILING_HELP } from './loop-eval/params.ts';

const BONUS_WEIGHTS = [0, 0.1, 0.2, 0.3, 0.5, 1];
const MEMORY_WEIGHTS = [0, 0.25, 0.5, 1, 2];
/** Depths of retrieval's list for the oracle limited to what users could have been shown. */
const DEPTHS = [1, 3, 5, 10, 30];

failInOneLine();
if (helpAsked(process.argv.slice(2))) {
  console.log(LOOP_CEILING_HELP);
  process.exit(0);
}
const params = ceilingParamsFromArgs(process.argv.slice(2));
const collection = await loadCollection(params.data, params.validationShare);
requireValidation(collection, params.validationShare);
const ev = evaluator(collection.corpus.chunks, params.retrieveK);

/** Documents known to answer some question, with the terms of each question they answer. */
type Known = Map<string, Set<string>[]>;

function known(pairs: Iterable<{ doc: string; query: string }>): Known {
  const out: Known = new Map();
  for (const { doc, query } of pairs) {
    const list = out.get(doc) ?? [];
    list.push(new Set(terms(query)));
    out.set(doc, list);
  }
  return out;
}

/** What a use of the evidence adds to a candidate document for a question's terms. */
type Extra = (queryTerms: ReadonlySet<string>, doc: string) => number;

/** Positions of `items`, best first: retrieval's score scaled to [0, 1] over them, plus `extra`. */
function order(extra: Extra, query: string, items: readonly { doc: string; score: number }[]): number[] {
  const q = new Set(terms(query));
  const scores = items.map((c) => c.score);
  const [min, max] = [Math.min(...scores), Math.max(...scores)];
  return items
    .map((c, i) => ({ i, v: (max > min ? (c.score - min) / (max - min) : 1) + extra(q, c.doc) }))
    .sort((a, b) => b.v - a.v || a.i - b.i)
    .map(({ i }) => i);
}

/** `extra` on retrieval's candidates, as the evaluator hands them. */
const onRetrieval = (extra: Extra) => (query: string, candidates: Scored[]) =>
  order(
    extra,
    query,
    candidates.map((c) => ({ doc: c.chunk.sourceDocId, score: c.score })),
  ).map((i) => candidates[i]!);

const bonus =
  (k: Known, weight: number): Extra =>
  (_q, doc) =>
    k.has(doc) ? weight : 0;
const memory =
  (k: Known, weight: number): Extra =>
  (q, doc) => {
    let best = 0;
    for (const asked of k.get(doc) ?? []) best = Math.max(best, termCosine(q, asked));
    return weight * best;
  };

/** The weight validation likes best, and test at that weight. */
async function atBestWeight(weights: readonly number[], use: (weight: number) => Extra) {
  let best = { weight: 0, validation: Number.NEGATIVE_INFINITY };
  for (const weight of weights) {
    const m = await ev.reordered(collection.validation, onRetrieval(use(weight)));
    if (m.ndcg10 > best.validation) best = { weight, validation: m.ndcg10 };
  }
  return { ...best, test: (await ev.reordered(collection.test, onRetrieval(use(best.weight)))).ndcg10 };
}

async function ceiling(name: string, k: Known) {
  const flat = await atBestWeight(BONUS_WEIGHTS, (w) => bonus(k, w));
  const remembered = await atBestWeight(MEMORY_WEIGHTS, (w) => memory(k, w));
  const f = (x: number) => x.toFixed(3);
  console.log(`${name}: ${k.size} documents`);
  console.log(`  flat bonus ${flat.weight}: validation ${f(flat.validation)}, test ${f(flat.test)}`);
  console.log(`  memory ${remembered.weight}: validation ${f(remembered.validation)}, test ${f(remembered.test)}`);
}

const [bm25Validation, bm25Test] = [await ev.bm25(collection.validation), await ev.bm25(collection.test)];
console.log(`${collection.name}: BM25 validation nDCG@10 ${bm25Validation.ndcg10.toFixed(3)}, test ${bm25Test.ndcg10.toFixed(3)}`);
await ceiling(
  'documents relevant to some traffic query (oracle)',
  known(collection.traffic.flatMap((q) => [...q.relevant].map((doc) => ({ doc, query: q.text })))),
);
const index = new Bm25Index(collection.corpus.chunks);
const trafficHits = collection.traffic.map((q) => ({ q, docs: index.search(q.text, Math.max(...DEPTHS)).map((h) => h.doc.sourceDocId) }));
for (const depth of DEPTHS) {
  const pairs = trafficHits.flatMap(({ q, docs }) => docs.slice(0, depth).flatMap((doc) => (q.relevant.has(doc) ? [{ doc, query: q.text }] : [])));
  await ceiling(`the oracle's documents that retrieval ranks in the top ${depth} for a question they answer`, known(pairs));
}
if (params.trainingData) {
  const { data, evalQueries } = JSON.parse(readFileSync(params.trainingData, 'utf8')) as { data: TrainingData; evalQueries: EvalQuery[] };
  const confirmed = (relevance: 0 | 1) => known(data.confirmed.filter((c) => c.relevance === relevance).map((c) => ({ doc: c.sourceDocId, query: c.query })));
  const [relevant, rejected] = [confirmed(1), confirmed(0)];
  await ceiling(`documents reviewers confirmed relevant (${params.trainingData})`, relevant);
  // What the gate would see of the same uses: its eval sets, nDCG@5 over their judged queries.
  const onEvalSets = (extra: Extra) =>
    evaluateOnEvalSets(
      (q, candidates) =>
        order(
          extra,
          q,
          candidates.map((c) => ({ doc: c.sourceDocId ?? c.chunkId, score: c.score ?? 0 })),
        ).map((i) => candidates[i]!.chunkId),
      evalQueries,
    ).overall;
  const rows = [
    ['retrieval', onEvalSets(() => 0)],
    ['the memory of relevant documents (weight 1)', onEvalSets(memory(relevant, 1))],
    ['the memory of rejected documents, subtracted (weight 0.5)', onEvalSets(memory(rejected, -0.5))],
  ] as const;
  console.log(`the eval sets in ${params.trainingData}: ${rows[0][1].queries} judged queries`);
  for (const [name, m] of rows) console.log(`  ${name}: nDCG@5 ${m.ndcg5.toFixed(3)}`);
  const demoted = await atBestWeight([-0.5], (w) => memory(rejected, w));
  console.log(`  the latter on validation ${demoted.validation.toFixed(3)}, test ${demoted.test.toFixed(3)}`);
}
