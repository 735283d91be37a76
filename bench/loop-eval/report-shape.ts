/** What `npm run loop:eval` reports: a row per simulated week, and the whole run (written as JSON with `--out`). */
import type { Anchors } from './anchors.ts';
import type { SplitExclusions } from './collection.ts';
import type { Metrics } from './evaluate.ts';
import type { LoopEvalParams } from './params.ts';
import type { TRAFFIC_MODEL } from './traffic.ts';
import type { USER_MODEL } from './user-model.ts';

export interface CycleRow {
  cycle: number;
  week: string;
  sessions: number;
  traces: number;
  browserTraces: number;
  eventsSent: number;
  /** Of them, those the collector holds (taken by any sending of their batch). */
  eventsStored: number;
  /** Answered `duplicate` the first time they were sent: none, ids being unique to each event. */
  eventsDuplicate: number;
  /** Events of the night's touched traces, and those the noise filter left trusted. */
  eventsAssessed: number;
  trustedSignals: number;
  /** Answers a rephrase said were wrong, and of them those the collector marked `contradicted_by_follow_up`. */
  pushedBack: number;
  pushBacksMarked: number;
  mined: number;
  reviewed: number;
  /** Of them, answered relevant (after the reviewer's errors). */
  reviewedRelevant: number;
  reviewMistakes: number;
  pendingLeft: number;
  /** Confirmed examples (relevant / not relevant answers) in all, held-out queries' included. */
  confirmed: number;
  trained: string | null;
  gate: string;
  promoted: string | null;
  /** The Worker isolate's V8 heap in use at its largest during the night, garbage included, as its inspector read it (bench/isolate-heap.ts), in MB. */
  workerHeapMb: number;
  test: Metrics;
  validation: Metrics;
  /**
   * nDCG@10 on the train questions users have asked so far, by BM25 and by the promoted model: how
   * much better the questions that come back are answered. Their judgements are the ones the
   * simulated reviewer answers from, so this is what the loop learnt, not what generalises.
   */
  asked: { queries: number; bm25: number; promoted: number };
  /** The model trained this week, whatever the gate said: its test, validation and asked nDCG@10. */
  candidate: {
    version: string;
    decision: string;
    testNdcg10: number;
    validationNdcg10: number;
    askedNdcg10: number;
    /** Its weights by feature (standardised), and what it was trained on. */
    weights: Record<string, number>;
    training: { confirmed: number; queries: number; pairs: number };
  } | null;
  /** Share of this week's API answers (the abusive session's apart) that cited a relevant source: the users' view. */
  helpfulShare: number;
  seconds: number;
}

export interface LoopEvalReport {
  date: string;
  params: LoopEvalParams;
  collection: {
    name: string;
    documents: number;
    /** Documents whose id came again in corpus.jsonl (the later one kept). */
    duplicateIds: number;
    trafficQueries: number;
    validationQueries: number;
    /** Train queries kept out of traffic as the curated suite, and of them those sent (with a relevant document retrieved). */
    curatedQueries: number;
    curatedSent: number;
    testQueries: number;
    excluded: SplitExclusions;
  };
  userModel: typeof USER_MODEL;
  trafficModel: typeof TRAFFIC_MODEL;
  baseline: { test: Metrics; validation: Metrics };
  /** Published figures for this collection, where the run knows them. */
  anchors: Anchors | null;
  cycles: CycleRow[];
  final: { test: Metrics; validation: Metrics; promoted: string | null };
  /** Promotions that made the test figure worse than the model replaced (the gate's mistakes). */
  gateRegressions: { version: string; replaced: string | null; before: number; after: number }[];
  seconds: number;
}
