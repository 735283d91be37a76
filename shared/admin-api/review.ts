/** What `GET /v1/admin/review` and `/review/:id/traces` answer: one shape for the collector and the console. */
import type { Evidence } from './evidence.ts';
import type { GuessWhy } from './guess-why.ts';

/** A reviewer's answer: the one list the collector's column, its check of an answer and the console's types are made from. */
export const VERDICTS = ['relevant', 'not_relevant', 'unclear'] as const;
export type Verdict = (typeof VERDICTS)[number];
/**
 * Where an item is: pending in the queue, held for now (`heldFor` says why), or answered. The one
 * list the collector's column, its `?status=` check and the console's filter are made from.
 */
export const REVIEW_STATUSES = ['pending', 'held', 'answered'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
/** Mining's guess at what failed: the one list the collector's column and mining's type are made from. */
export const GUESSES = ['retrieval_failed', 'generation_failed', 'unclear', 'worked'] as const;
export type Guess = (typeof GUESSES)[number];
/**
 * Why the nightly job holds an item (collector/loop/review-budget.ts `heldReason`): below the mining
 * threshold, past what a week's review budget clears, or on a curated question no answer is of use for.
 */
export const HELD_REASONS = ['threshold', 'budget', 'curated'] as const;
export type HeldReason = (typeof HELD_REASONS)[number];

/** One question for a reviewer: does this chunk help answer this query? */
export interface ReviewItem {
  id: string;
  query: string;
  chunk: { chunkId: string; sourceDocId: string; sourceDocVersion: string | null; text: string };
  rank: number;
  score: number;
  /** Which way the evidence points. */
  candidate: 'negative' | 'positive';
  guess: Guess;
  /** Why the guess, in English (`guessWhyCode` worded). */
  guessWhy: string;
  /** The same as a code and its numbers, for a reader to word in their own language. */
  guessWhyCode: GuessWhy;
  /** The evidence in English, one line each (`evidenceCodes` worded). */
  evidence: string[];
  /** The same evidence as codes and their numbers, for a reader to word in their own language. */
  evidenceCodes: Evidence[];
  traceCount: number;
  /** The strongest traces behind it (at most 20). */
  traceIds: string[];
  expectedValue: number;
  status: ReviewStatus;
  verdict: Verdict | null;
  note: string | null;
  answeredAt: number | null;
  /** Its question is among those kept out of training for the eval sets: an answer labels them instead. */
  heldOut: boolean;
  /**
   * Its question is in the team's curated eval suite: an answer never trains (on one held out too, it
   * labels the eval sets). Items on one not held out were raised before it joined, and are held.
   */
  curated: boolean;
  /** Why it is held; null unless held. */
  heldFor: HeldReason | null;
}

/** What `GET /v1/admin/review` answers: a page of one status's items, the week's budget and training readiness. */
export interface ReviewQueue {
  items: ReviewItem[];
  /** The week's review budget and the queue's counts; `heldFor`: the held items by why the collector holds them. */
  budget: {
    minutesPerWeek: number;
    secondsPerItem: number;
    itemsPerWeek: number;
    answeredLastWeek: number;
    pending: number;
    held: number;
    heldFor: Record<HeldReason, number>;
    miningThreshold: number;
  };
  /** `examples`: the confirmed items that train (not on held-out or curated questions), held against `minimum`; `trainedOn`: the last model's. */
  training: { confirmed: number; examples: number; trainedOn: number; minimum: number; ready: boolean };
}

/** One trace behind a review item: what it contributed, and the answer it came from. */
export interface ReviewItemTrace {
  traceId: string;
  candidate: 'negative' | 'positive';
  weight: number;
  /** What it contributed, in English (`evidenceCodes` worded). */
  evidence: string[];
  /** The same as codes and their numbers. */
  evidenceCodes: Evidence[];
  rank: number;
  score: number;
  guess: string;
  /** Why the guess, in English (`guessWhyCode` worded). */
  guessWhy: string;
  /** The same as a code and its numbers. */
  guessWhyCode: GuessWhy;
  /** Null once the trace itself is gone (retention, erasure). */
  query: string | null;
  createdAt: number | null;
  /** The trace's confidence-weighted score. */
  weightedScore: number | null;
  /** What users wrote the answer should have said (gone with the events, by retention or erasure). */
  corrections: string[];
}
