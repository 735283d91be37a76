/**
 * What training reads, whoever gathers it (the nightly job from D1, `npm run retrain` over the
 * admin API): confirmed judgements, the candidate lists their queries were answered with, and
 * engagement by rank. Only training queries appear here: held-out queries belong to the eval sets.
 */
import type { Candidate } from '../reranker/candidate.ts';

/** A reviewer's verdict on (query, chunk). Only relevant / not relevant train; unclear never does. */
export interface Confirmed {
  queryKey: string;
  query: string;
  chunkId: string;
  sourceDocId: string;
  relevance: 0 | 1;
  /** Sessions, user hashes and IP hashes of the traces that raised it: a batch one of them dominates is refused. */
  origins?: { sessions?: readonly string[]; users?: readonly string[]; ips?: readonly string[] };
}

/** The candidates a query was answered with, in retrieval's order (before any reranker). */
export interface CandidateList {
  queryKey: string;
  query: string;
  candidates: Candidate[];
}

/**
 * Trusted engagement (clicks, focused reading, copies that passed the noise filter, weighted by
 * kind) and impressions of a chunk at one rank, over the same traces. With `queryKey` the row is
 * one training query's share of the total, so training can leave a query's own engagement out of
 * its features.
 */
export interface EngagementRow {
  chunkId: string;
  /** Lets engagement with one chunk of a document speak for its other chunks. */
  sourceDocId?: string;
  rank: number;
  shown: number;
  engaged: number;
  queryKey?: string;
}

export interface TrainingData {
  confirmed: Confirmed[];
  lists: CandidateList[];
  /** Totals per (chunk, rank) over all traffic in the window. */
  engagement: EngagementRow[];
  /** The same per query (with `queryKey`): training leaves a query's own share out, and a document engaged with on some question is evidence it answers something. */
  queryEngagement: EngagementRow[];
  /**
   * Impressions per rank (index rank - 1) over all traffic, when the rows above do not carry
   * every impression (a collector keeps engagement rows only for engaged chunks).
   */
  shownByRank?: number[];
}
