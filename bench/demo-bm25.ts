/**
 * The demo's retrieval baseline on a public test collection: BM25 (k1 0.9, b 0.4, title + text,
 * terms() tokens) over SciFact (or `BENCH_BEIR_DIR`), scored on its test queries beside the
 * published figure when there is one (SciFact nDCG@10 0.665, BEIR paper, Thakur et al. 2021), plus
 * index build time and query throughput.
 * SciFact: Wadden et al., EMNLP 2020 (claims CC BY 4.0, abstracts ODC-By 1.0).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadBeir } from '../demo/corpus/beir.ts';
import { ROOT } from '../scripts/wrangler.ts';
import { Bm25Index } from '../shared/bm25.ts';
import { type Judgments, meanOverQueries, mrrAt, ndcgAt, recallAt } from '../shared/ranking-metrics.ts';
import { anchorsFor } from './loop-eval/anchors.ts';
import { type Row, row } from './stats.ts';

const RUNS = 5;
/** A BEIR directory: SciFact beside the repository unless `BENCH_BEIR_DIR` names another. */
const DIR = resolve(ROOT, process.env.BENCH_BEIR_DIR ?? '../shared/data/scifact');
/** How far under the published BM25 figure the demo's baseline may be and still be fair. */
const PUBLISHED_MARGIN = 0.02;

/**
 * The quality rows of a collection's test run, named after it: the published figure, and a
 * budget against it, only for a collection that has one (`anchorsFor`, by directory name),
 * so that another collection is not held to SciFact's.
 */
export function qualityRows(name: string, runs: ReadonlyMap<string, readonly string[]>, judged: ReadonlyMap<string, Judgments>): Row[] {
  const once = (metric: string, value: number, budget?: string) => row('demo-bm25', metric, '', [value], budget);
  const published = anchorsFor(name)?.bm25;
  const ndcg10 = meanOverQueries(ndcgAt, 10, runs, judged);
  return [
    published === undefined
      ? once(`nDCG@10 on ${name} test (no published figure)`, ndcg10)
      : once(`nDCG@10 on ${name} test (BEIR paper BM25: ${published})`, ndcg10, `>= ${(published - PUBLISHED_MARGIN).toFixed(3)}`),
    once(`nDCG@5 on ${name} test`, meanOverQueries(ndcgAt, 5, runs, judged)),
    once(`Recall@100 on ${name} test`, meanOverQueries(recallAt, 100, runs, judged)),
    once(`MRR@10 on ${name} test`, meanOverQueries(mrrAt, 10, runs, judged)),
  ];
}

export async function demoBm25Bench(): Promise<Row[]> {
  if (!existsSync(join(DIR, 'corpus.jsonl'))) {
    console.error(`demo-bm25: skipped, no BEIR collection at ${DIR} (set BENCH_BEIR_DIR)`);
    return [];
  }
  const { name, chunks, queries, qrels } = await loadBeir(DIR);
  const judged = qrels?.get('test');
  if (!judged || !queries) throw new Error(`${DIR} has no qrels/test.tsv or queries.jsonl`);
  const testQueries = [...judged.keys()].map((id) => [id, queries.get(id) ?? ''] as const);

  const build: number[] = [];
  const qps: number[] = [];
  let index: Bm25Index<(typeof chunks)[number]> | undefined;
  let runs = new Map<string, string[]>();
  for (let r = 0; r < RUNS; r++) {
    let start = performance.now();
    index = new Bm25Index(chunks);
    build.push(performance.now() - start);
    runs = new Map();
    start = performance.now();
    for (const [id, text] of testQueries)
      runs.set(
        id,
        index.search(text, 100).map((h) => h.doc.chunkId),
      );
    qps.push(testQueries.length / ((performance.now() - start) / 1000));
  }
  // Ranking is deterministic: the quality figures are the same every run.
  console.error(`demo-bm25: ${chunks.length} documents, ${testQueries.length} test queries from ${DIR}`);
  return [
    ...qualityRows(name, runs, judged),
    row('demo-bm25', 'index build (tokenise + invert)', 'ms', build),
    row('demo-bm25', 'queries, top 100', 'queries/s', qps),
  ];
}
