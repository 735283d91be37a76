/** The run's parameters, from flags, with the defaults the README's table was made with. */
import { parseArgs } from 'node:util';

export interface LoopEvalParams {
  /** A directory in BEIR layout with qrels/train.tsv and qrels/test.tsv. */
  data: string;
  /** Simulated weeks: traffic, the nightly job, review. */
  cycles: number;
  /** Sessions per week. */
  sessions: number;
  seed: number;
  /** Where the JSON report goes. */
  out: string;
  /** Candidates the demo retrieves and the reranker reorders. */
  retrieveK: number;
  /** Share of train queries held out of traffic to tune on. */
  validationShare: number;
  /** The review budget (the product's default is 30 minutes a week at 20 s an item: 90 items). */
  reviewMinutesPerWeek: number;
  secondsPerReviewItem: number;
  /** Share of review verdicts the simulated reviewer gets wrong. */
  reviewerError: number;
  /** Sessions a week played in headless Chromium through the real widget. */
  browserSessions: number;
  /**
   * Retrain in Node with the embedding features, from a model learnt from the collection's corpus
   * (bench/loop-eval/corpus-embedder.ts), instead of in the nightly job with lexical features only.
   */
  corpusEmbeddings: boolean;
  /** A folder to write what the next retraining reads after each week's review (`week-N.json`); empty for none. */
  trainingData: string;
  /** Print progress lines. */
  quiet: boolean;
}

export const DEFAULT_PARAMS: LoopEvalParams = {
  data: '../shared/data/scifact',
  cycles: 8,
  sessions: 600,
  seed: 1,
  out: 'bench/results/loop-eval.json',
  retrieveK: 30,
  validationShare: 0.2,
  reviewMinutesPerWeek: 30,
  secondsPerReviewItem: 20,
  reviewerError: 0.1,
  browserSessions: 3,
  corpusEmbeddings: false,
  trainingData: '',
  quiet: false,
};

export function paramsFromArgs(argv: readonly string[]): LoopEvalParams {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      data: { type: 'string' },
      cycles: { type: 'string' },
      sessions: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      'retrieve-k': { type: 'string' },
      'review-minutes': { type: 'string' },
      'reviewer-error': { type: 'string' },
      'browser-sessions': { type: 'string' },
      'training-data': { type: 'string' },
      'corpus-embeddings': { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
  });
  const num = (v: string | undefined, fallback: number, name: string) => {
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, not ${v}`);
    return n;
  };
  const d = DEFAULT_PARAMS;
  return {
    ...d,
    data: values.data ?? d.data,
    cycles: num(values.cycles, d.cycles, 'cycles'),
    sessions: num(values.sessions, d.sessions, 'sessions'),
    seed: num(values.seed, d.seed, 'seed'),
    out: values.out ?? d.out,
    retrieveK: num(values['retrieve-k'], d.retrieveK, 'retrieve-k'),
    reviewMinutesPerWeek: num(values['review-minutes'], d.reviewMinutesPerWeek, 'review-minutes'),
    reviewerError: num(values['reviewer-error'], d.reviewerError, 'reviewer-error'),
    browserSessions: num(values['browser-sessions'], d.browserSessions, 'browser-sessions'),
    corpusEmbeddings: values['corpus-embeddings'] ?? d.corpusEmbeddings,
    trainingData: values['training-data'] ?? d.trainingData,
    quiet: values.quiet ?? d.quiet,
  };
}
