/** The run's parameters, from flags, with the defaults the README's table was made with. */
import { join } from 'node:path';
import { decimalNumber, parseCommand, wholeNumber } from '../../scripts/cli.ts';
import { ROOT } from '../../scripts/wrangler.ts';
import {
  DEFAULT_LOOP_SETTINGS,
  MAX_REVIEW_MINUTES_PER_WEEK,
  MAX_SECONDS_PER_REVIEW_ITEM,
  MIN_REVIEW_MINUTES_PER_WEEK,
  MIN_SECONDS_PER_REVIEW_ITEM,
} from '../../shared/schema/settings.ts';
import { DEPTH } from './evaluate.ts';

/** Bounds no run comes near, so a slip of the keyboard is refused rather than run for days. */
const MAX_WEEKS = 520;
const MAX_SESSIONS = 1_000_000;

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
  /**
   * Share of the other train queries kept out of traffic as the team's curated eval suite, sent to
   * the collector with their judgements (`PUT /v1/admin/eval-suite/:queryId`); 0 for feedback alone.
   */
  curatedShare: number;
  /** Keep the curated share out of traffic but do not send it: the control for a run with it. */
  curatedUnsent: boolean;
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
  // Beside the repo, wherever the command is run from.
  data: join(ROOT, '..', 'shared', 'data', 'scifact'),
  cycles: 8,
  sessions: 600,
  seed: 1,
  out: 'bench/results/loop-eval.json',
  retrieveK: 30,
  validationShare: 0.2,
  curatedShare: 0,
  curatedUnsent: false,
  // The review budget a project has by default.
  reviewMinutesPerWeek: DEFAULT_LOOP_SETTINGS.reviewMinutesPerWeek,
  secondsPerReviewItem: DEFAULT_LOOP_SETTINGS.secondsPerReviewItem,
  reviewerError: 0.1,
  browserSessions: 3,
  corpusEmbeddings: false,
  trainingData: '',
  quiet: false,
};

// The commands' strict readers: `Number()` would take `1e3`, `0x10`, ` 5` or an empty value.
const whole = (v: string | undefined, fallback: number, name: string, min: number, max: number) =>
  v === undefined ? fallback : wholeNumber(`--${name}`, v, min, max);
const decimal = (v: string | undefined, fallback: number, name: string, min: number, max: number, unit?: string) =>
  v === undefined ? fallback : decimalNumber(`--${name}`, v, min, max, unit);
const share = (v: string | undefined, fallback: number, name: string) => {
  const n = decimal(v, fallback, name, 0, 1);
  if (n === 1) throw new Error(`--${name} must be a share below 1, not ${JSON.stringify(v)}`);
  return n;
};

/** The flags loop:eval was given; a flag it does not take is refused in one line with its usage. */
export function paramsFromArgs(argv: readonly string[]): LoopEvalParams {
  const { values } = parseCommand(
    {
      ...CEILING_OPTIONS,
      cycles: { type: 'string' },
      sessions: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      'curated-share': { type: 'string' },
      'curated-unsent': { type: 'boolean' },
      'review-minutes': { type: 'string' },
      'seconds-per-item': { type: 'string' },
      'reviewer-error': { type: 'string' },
      'browser-sessions': { type: 'string' },
      'corpus-embeddings': { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
    'npm run loop:eval -- [flags] (--help lists them)',
    { args: [...argv] },
  );
  const d = DEFAULT_PARAMS;
  return {
    ...d,
    ...ceilingValues(values),
    cycles: whole(values.cycles, d.cycles, 'cycles', 0, MAX_WEEKS),
    sessions: whole(values.sessions, d.sessions, 'sessions', 0, MAX_SESSIONS),
    // The generator reads its seed as 32 bits (scripts/seed/traffic.ts).
    seed: whole(values.seed, d.seed, 'seed', 0, 2 ** 32 - 1),
    out: values.out ?? d.out,
    curatedShare: share(values['curated-share'], d.curatedShare, 'curated-share'),
    curatedUnsent: values['curated-unsent'] ?? d.curatedUnsent,
    reviewMinutesPerWeek: decimal(
      values['review-minutes'],
      d.reviewMinutesPerWeek,
      'review-minutes',
      MIN_REVIEW_MINUTES_PER_WEEK,
      MAX_REVIEW_MINUTES_PER_WEEK,
      'minutes',
    ),
    secondsPerReviewItem: decimal(
      values['seconds-per-item'],
      d.secondsPerReviewItem,
      'seconds-per-item',
      MIN_SECONDS_PER_REVIEW_ITEM,
      MAX_SECONDS_PER_REVIEW_ITEM,
      'seconds',
    ),
    reviewerError: share(values['reviewer-error'], d.reviewerError, 'reviewer-error'),
    browserSessions: whole(values['browser-sessions'], d.browserSessions, 'browser-sessions', 0, MAX_SESSIONS),
    corpusEmbeddings: values['corpus-embeddings'] ?? d.corpusEmbeddings,
    quiet: values.quiet ?? d.quiet,
  };
}

/** What loop:ceiling reads: the collection and its split as loop:eval makes them, and one week's training data. */
export type LoopCeilingParams = Pick<LoopEvalParams, 'data' | 'validationShare' | 'retrieveK' | 'trainingData'>;

/** The flags loop:ceiling reads, which loop:eval reads the same way. */
const CEILING_OPTIONS = {
  data: { type: 'string' },
  'retrieve-k': { type: 'string' },
  'validation-share': { type: 'string' },
  'training-data': { type: 'string' },
} as const;

function ceilingValues(values: { data?: string; 'retrieve-k'?: string; 'validation-share'?: string; 'training-data'?: string }): LoopCeilingParams {
  const d = DEFAULT_PARAMS;
  return {
    data: values.data ?? d.data,
    retrieveK: whole(values['retrieve-k'], d.retrieveK, 'retrieve-k', 1, DEPTH),
    validationShare: share(values['validation-share'], d.validationShare, 'validation-share'),
    trainingData: values['training-data'] ?? d.trainingData,
  };
}

/** The flags loop:ceiling was given: only those it reads; loop:eval's others are refused with its usage. */
export function ceilingParamsFromArgs(argv: readonly string[]): LoopCeilingParams {
  return ceilingValues(parseCommand(CEILING_OPTIONS, 'npm run loop:ceiling -- [flags] (--help lists them)', { args: [...argv] }).values);
}

export const LOOP_EVAL_HELP = `npm run loop:eval -- [flags]
  --data DIR              a directory in BEIR layout: corpus.jsonl, queries.jsonl, qrels/train.tsv, qrels/test.tsv
                          (default: SciFact in ../shared/data/scifact beside the repo)
  --cycles K              simulated weeks (default ${DEFAULT_PARAMS.cycles})
  --sessions N            sessions a week through the HTTP API (default ${DEFAULT_PARAMS.sessions})
  --browser-sessions N    more sessions a week in headless Chromium through the widget (default ${DEFAULT_PARAMS.browserSessions})
  --seed S                the simulation's seed (default ${DEFAULT_PARAMS.seed})
  --out FILE              the JSON report (default ${DEFAULT_PARAMS.out})
  --retrieve-k K          candidates retrieved and reranked (default ${DEFAULT_PARAMS.retrieveK})
  --validation-share F    train queries held out of traffic for validation (default ${DEFAULT_PARAMS.validationShare})
  --curated-share F       other train queries held out of traffic as the team's curated eval suite, which the gate
                          decides on (default ${DEFAULT_PARAMS.curatedShare}: feedback alone)
  --curated-unsent        hold the curated share out of traffic without sending it (the control)
  --review-minutes M      the review budget a week (default ${DEFAULT_PARAMS.reviewMinutesPerWeek})
  --seconds-per-item S    the review's seconds an item (default ${DEFAULT_PARAMS.secondsPerReviewItem})
  --reviewer-error F      share of verdicts the reviewer gets wrong (default ${DEFAULT_PARAMS.reviewerError})
  --corpus-embeddings     retrain with embedding features from a model learnt from the corpus
  --training-data DIR     write what each retraining reads as DIR/week-N.json
  --quiet                 no progress lines
  --help                  this text`;

export const LOOP_CEILING_HELP = `npm run loop:ceiling -- [flags]
  --data DIR              the collection, as loop:eval's --data (default: SciFact in ../shared/data/scifact beside the repo)
  --retrieve-k K          candidates retrieved and reordered (default ${DEFAULT_PARAMS.retrieveK})
  --validation-share F    train queries held out of traffic for validation, as the loop:eval run used
                          (default ${DEFAULT_PARAMS.validationShare})
  --training-data FILE    one week's file of a run's \`npm run loop:eval -- --training-data DIR\` (DIR/week-N.json):
                          adds what its reviewers confirmed, and what its eval sets say
  --help                  this text`;
