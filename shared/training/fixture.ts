/**
 * A small world for training tests: per topic, a long relevant chunk retrieval under-ranks and a
 * short distractor it over-ranks. Training queries and held-out queries of a topic are worded
 * differently, so only what generalises (memory by similarity, priors) can help the held-out ones.
 */
import type { Candidate } from '../reranker/candidate.ts';
import { queryKey } from '../terms.ts';
import type { CandidateList, Confirmed, TrainingData } from './data.ts';
import type { EvalQuery } from './gate.ts';

const filler = 'method results cohort analysis measured across several independent sites during follow up';

const distractor = (t: number) => ({ chunkId: `dis-${t}`, sourceDocId: `doc-dis-${t}`, text: `alpha${t} gamma${t} alpha${t}` });
const relevant = (t: number) => ({ chunkId: `rel-${t}`, sourceDocId: `doc-rel-${t}`, text: `alpha${t} beta${t} gamma${t} ${filler} ${filler}` });

function candidates(t: number, topics: number): Candidate[] {
  const other = (k: number) => (t + k) % topics;
  return [
    { ...distractor(t), score: 12 },
    { ...distractor(other(1)), score: 9 },
    { chunkId: `noise-${t}`, sourceDocId: `doc-noise-${t}`, text: `gamma${t} ${filler}`, score: 8 },
    { ...relevant(other(2)), score: 7 },
    { ...relevant(t), score: 6 },
  ];
}

export function trainingWorld(topics = 40, origin = (t: number) => `session-${t}`): { data: TrainingData; heldOut: EvalQuery[] } {
  const confirmed: Confirmed[] = [];
  const lists: CandidateList[] = [];
  const heldOut: EvalQuery[] = [];
  for (let t = 0; t < topics; t++) {
    const query = `alpha${t} beta${t} gamma${t} delta${t}`;
    const key = queryKey(query);
    const origins = { sessions: [origin(t)] };
    lists.push({ queryKey: key, query, candidates: candidates(t, topics) });
    confirmed.push({ queryKey: key, query, chunkId: `rel-${t}`, sourceDocId: `doc-rel-${t}`, relevance: 1, origins });
    confirmed.push({ queryKey: key, query, chunkId: `dis-${t}`, sourceDocId: `doc-dis-${t}`, relevance: 0, origins });
    heldOut.push({
      layer: t % 2 ? 'echo' : 'variant',
      query: `alpha${t} gamma${t} epsilon${t}`,
      candidates: candidates(t, topics),
      judgements: { [`rel-${t}`]: 1, [`dis-${t}`]: 0 },
    });
  }
  return { data: { confirmed, lists, engagement: [], queryEngagement: [] }, heldOut };
}
