/**
 * The reranker's costs: `rerank()` throughput in Node on one core (chunks scored per second, with
 * the hot chunks' terms cached as in a backend serving repeat traffic, and cold; the model's ranking
 * alone, and a whole `createReranker().rerank()` call, its copies included), training time
 * at 10,000 confirmed examples, and the artifact's size there. The data are synthetic (seeded):
 * queries of 4-8 words and chunks of ~120 words over a Zipf-distributed 20,000-word vocabulary,
 * 100 candidates per query, two judgements (one relevant, one not) per training query.
 */
import { createReranker } from '../client/reranker.ts';
import type { Candidate } from '../shared/reranker/candidate.ts';
import { rerankWithModel } from '../shared/reranker/rerank.ts';
import { queryKey } from '../shared/terms.ts';
import type { CandidateList, Confirmed, EngagementRow } from '../shared/training/data.ts';
import { trainReranker } from '../shared/training/train.ts';
import { type Row, row } from './stats.ts';

const CONFIRMED = 10_000;
const CANDIDATES = 100;
const CHUNKS = 50_000;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function world(seed = 11) {
  const r = rng(seed);
  const word = () => `w${Math.floor(20_000 ** r())}`; // Zipf-like: small ids are common
  const text = (n: number) => Array.from({ length: n }, word).join(' ');
  const chunks: Candidate[] = Array.from({ length: CHUNKS }, (_, i) => ({ chunkId: `c${i}`, sourceDocId: `d${i >> 2}`, text: text(120) }));
  const pick = () => chunks[Math.floor(r() * CHUNKS)]!;
  const listFor = (): Candidate[] => Array.from({ length: CANDIDATES }, (_, k) => ({ ...pick(), score: 30 - k * 0.2 }));
  const lists: CandidateList[] = [];
  const confirmed: Confirmed[] = [];
  const engagement: EngagementRow[] = [];
  for (let q = 0; q < CONFIRMED / 2; q++) {
    const query = text(4 + Math.floor(r() * 5));
    const key = queryKey(query);
    const candidates = listFor();
    lists.push({ queryKey: key, query, candidates });
    const [pos, neg] = [candidates[Math.floor(r() * 10)]!, candidates[0]!];
    confirmed.push({ queryKey: key, query, chunkId: pos.chunkId, sourceDocId: pos.sourceDocId!, relevance: 1 });
    confirmed.push({ queryKey: key, query, chunkId: neg.chunkId, sourceDocId: neg.sourceDocId!, relevance: 0 });
    engagement.push({ chunkId: pos.chunkId, rank: 1 + Math.floor(r() * 3), shown: 20, engaged: 3 });
  }
  const queries = Array.from({ length: 200 }, () => ({ query: text(6), candidates: listFor() }));
  return { data: { confirmed, lists, engagement, queryEngagement: [] }, queries };
}

export async function rerankerBench(): Promise<Row[]> {
  const { data, queries } = world();
  const trainMs: number[] = [];
  let model = trainReranker(data, { version: 'bench', now: 0 }).model;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    model = trainReranker(data, { version: 'bench', now: 0 }).model;
    trainMs.push(performance.now() - t0);
  }
  const bytes = new TextEncoder().encode(JSON.stringify(model)).length;

  const throughput = (passes: number) => {
    const t0 = performance.now();
    let scored = 0;
    for (let p = 0; p < passes; p++)
      for (const q of queries) {
        rerankWithModel(model, q.query, q.candidates);
        scored += q.candidates.length;
      }
    return scored / ((performance.now() - t0) / 1000);
  };
  const cold = [throughput(1)];
  // Seven samples: the median of three moved by a tenth between runs on a shared machine.
  const warm = Array.from({ length: 7 }, () => throughput(3));
  // The client's own path besides: its checks of the arguments, what ranking reads, the copies it gives back.
  const body = JSON.stringify(model);
  const reranker = createReranker({
    endpoint: 'http://collector.test',
    serverKey: 'rfs_bench',
    refreshMs: Number.POSITIVE_INFINITY,
    fetch: async () => new Response(body),
  });
  await reranker.refresh();
  const client: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    let ranked = 0;
    for (let p = 0; p < 3; p++) for (const q of queries) ranked += (await reranker.rerank(q.query, q.candidates)).length;
    client.push(ranked / ((performance.now() - t0) / 1000));
  }
  return [
    row('reranker', `rerank(): chunks scored per second, Node, one core (${CANDIDATES} per query, hot chunks' terms cached)`, '/s', warm, '>= 200000'),
    row('reranker', 'rerank(): chunks scored per second, first sight of every chunk (tokenising it)', '/s', cold),
    row('reranker', "createReranker().rerank(): chunks ranked per second, the client's whole call (hot chunks' terms cached)", '/s', client),
    row('reranker', `training time, ${CONFIRMED.toLocaleString('en-US')} confirmed examples`, 'ms', trainMs, '<= 2000'),
    row('reranker', `artifact size at ${CONFIRMED.toLocaleString('en-US')} confirmed examples`, 'B', [bytes]),
  ];
}
