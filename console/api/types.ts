/**
 * What the console reads from the admin API, as the routes in collector/routes/admin/ answer it
 * (README, "The nightly loop"). Only the fields the pages use.
 */
export type { ChunkUsage } from '../../shared/admin-api/chunks.ts';
export type { DeadLetter, DeadLetterReplay, DeadLetters } from '../../shared/admin-api/dead-letters.ts';
export type { Correction, FlaggedDocument, OwnerRule } from '../../shared/admin-api/documents.ts';
export type { ModelRegistry, ModelRollout, ModelSummary } from '../../shared/admin-api/models.ts';
export type { Guess, HeldReason, ReviewItem, ReviewItemTrace, ReviewQueue, ReviewStatus, Verdict } from '../../shared/admin-api/review.ts';
export type { Finding, WorstTrace } from '../../shared/admin-api/traces.ts';

import type { Guess, ReviewStatus, Verdict } from '../../shared/admin-api/review.ts';
import type { Finding } from '../../shared/admin-api/traces.ts';

export interface TraceChunk {
  chunkId: string;
  sourceDocId: string;
  sourceDocVersion: string | null;
  rank: number;
  score: number;
  text: string;
}

export interface TraceEvent {
  eventId: string;
  traceId: string;
  sessionId: string;
  signalType: string;
  signalValue: number | null;
  superseded: boolean;
  detail: Record<string, unknown>;
  clientTs: number;
  receivedAt?: number;
  confidence: number | null;
  rules: { rule: string; reason: string }[];
  attributedTraceId: string | null;
  attribution: { reason: string; scores: { traceId: string; score: number }[] } | null;
}

/** GET /v1/admin/traces/:traceId */
export interface TraceView {
  trace: {
    sessionId: string | null;
    userIdHash: string | null;
    turnIndex: number | null;
    query: string;
    rewrittenQuery: string | null;
    topK: number | null;
    threshold: number | null;
    embeddingModel: string | null;
    prompt: string | null;
    answer: string;
    model: string;
    rerankerVersion: string | null;
    intent: string | null;
    knowledgeBase: string | null;
    createdAt: number;
  } | null;
  retrievedChunks: TraceChunk[];
  rerankedChunks: TraceChunk[];
  citations: { n: number; chunkId: string }[];
  stats: { score: number | null; weightedScore: number | null; confidence: number | null; liveSignals: number; trustedSignals: number } | null;
  events: TraceEvent[];
  attributedHere: TraceEvent[];
  session: { traceId: string; turnIndex: number | null; query: string; createdAt: number; weightedScore: number | null }[];
  reviewItems: { id: string; chunkId: string; status: ReviewStatus; verdict: Verdict | null; guess: Guess }[];
  diagnosis: Finding[];
}

/** GET /v1/admin/health: one day's loop-health snapshot (collector/jobs/stages/health.ts). */
export interface HealthSnapshot {
  day: string;
  /** The model served that night; null before the first promotion (or in snapshots older than this field). */
  servedModel: string | null;
  /** Its night was run after a later one: the figures of the state then (review queue, confirmed examples, loop closure) are null. */
  caughtUp?: boolean;
  metrics: Partial<
    Record<
      | 'coverage'
      | 'trustedCoverage'
      | 'effectiveRate'
      | 'eventToStorageMs'
      | 'storageToReviewMs'
      | 'loopClosureRate'
      | 'reviewQueue'
      | 'reviewedLastWeek'
      | 'reviewBudgetPerWeek'
      | 'confirmedExamples'
      | 'evalNdcg5'
      | 'traces'
      | 'explicitSignals'
      | 'implicitSignals'
      | 'requeryRate'
      | 'outboxDrops',
      number | null
    >
  >;
}

/** The gate's figures for one ranking over the held-out eval queries (shared/training/gate.ts). */
export interface RankingMetrics {
  queries: number;
  ndcg5: number;
  ndcg10: number;
  mrr10: number;
}
