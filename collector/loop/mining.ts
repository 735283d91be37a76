/**
 * Mining (seed 000, "Turning explicit feedback into retrieval improvements"): from each scored
 * trace, the (query, chunk) pairs worth one reviewer's question, "does this chunk help answer
 * this query?", with the evidence and the system's guess of what failed. Only signals that
 * passed the noise filter reach here.
 */
import type { Evidence } from '../../shared/admin-api/evidence.ts';
import type { GuessWhy } from '../../shared/admin-api/guess-why.ts';
import type { Guess } from '../../shared/admin-api/review.ts';
import { termOverlap } from '../../shared/terms.ts';
import { isClearlyBad, isClearlyGood } from './trace-score.ts';

/** Chunks at or above this rank of a bad answer are hard-negative candidates (seed: rank 1; two catches a runner-up). */
export const MINED_TOP_RANKS = 2;
/** A correction sharing this much of its terms with a chunk means the chunk held the answer. */
export const CORRECTION_IN_CHUNK = 0.5;
/** Below this overlap with every chunk, the answer was not retrieved at all. */
export const CORRECTION_NOT_RETRIEVED = 0.25;
/** Evidence weight of each engagement with a cited chunk of a good answer. */
export const ENGAGEMENT_WEIGHT = { click: 0.4, dwell: 0.7, copy: 0.8 } as const;

export type CandidateLabel = 'negative' | 'positive';

export interface MinedChunk {
  chunkId: string;
  sourceDocId: string;
  sourceDocVersion: string | null;
  /** Rank in what the model saw (reranked when a reranker ran). */
  rank: number;
  score: number;
  text: string;
}

/** A scored trace and its trusted signals, as the miner needs them. */
export interface MiningTrace {
  traceId: string;
  query: string;
  /** Confidence-weighted score of its trusted signals. */
  score: number;
  chunks: MinedChunk[];
  /** Chunks flagged as the wrong source, with the flag's confidence. */
  flagged: { chunkId: string; confidence: number }[];
  /** Engagement with cited chunks: clicks, focused dwell, copies of the source. */
  engaged: { chunkId: string; kind: keyof typeof ENGAGEMENT_WEIGHT; confidence: number }[];
  /** Free-text corrections, with the source they name if any. */
  corrections: { text: string; source?: string; confidence: number }[];
  /** Reasons chosen after a thumbs-down. */
  reasons: string[];
}

export interface Candidate {
  traceId: string;
  query: string;
  chunk: MinedChunk;
  label: CandidateLabel;
  /** How strongly the evidence backs the label, before traffic is counted. */
  weight: number;
  /** Stored as codes, worded by each reader (shared/admin-api/evidence.ts). */
  evidence: Evidence[];
  guess: Guess;
  /** Stored as a code, worded by each reader (shared/admin-api/guess-why.ts). */
  guessWhy: GuessWhy;
}

export interface MiningThresholds {
  badTraceScore: number;
  goodTraceScore: number;
}

/** The evidence code of each kind of engagement. */
const ENGAGED = { click: 'clicked', dwell: 'read_with_focus', copy: 'copied' } as const;

/** What most likely failed in a bad answer, and why, from the corrections and reasons. */
export function diagnose(trace: MiningTrace): { guess: Guess; why: GuessWhy; closest?: { chunk: MinedChunk; overlap: number } } {
  const correction = trace.corrections[0];
  if (correction && trace.chunks.length) {
    const closest = trace.chunks
      .map((chunk) => ({ chunk, overlap: termOverlap(correction.text, chunk.text) }))
      .reduce((a, b) => (b.overlap > a.overlap ? b : a));
    if (closest.overlap >= CORRECTION_IN_CHUNK) {
      return { guess: 'generation_failed', why: { code: 'correction_retrieved', share: closest.overlap, rank: closest.chunk.rank }, closest };
    }
    if (closest.overlap < CORRECTION_NOT_RETRIEVED) {
      return { guess: 'retrieval_failed', why: { code: 'correction_not_retrieved', share: closest.overlap }, closest };
    }
  }
  if (trace.flagged.length)
    return { guess: 'retrieval_failed', why: { code: trace.flagged.length === 1 ? 'flagged_a_cited_source' : 'flagged_cited_sources' } };
  if (trace.reasons.includes('wrong_source')) return { guess: 'retrieval_failed', why: { code: 'said_wrong_source' } };
  if (trace.reasons.includes('not_answered')) return { guess: 'retrieval_failed', why: { code: 'said_not_answered' } };
  if (trace.reasons.includes('looks_wrong')) return { guess: 'unclear', why: { code: 'said_looks_wrong' } };
  // Completeness points at recall (seed 002, 2.2): what is missing may never have been retrieved, and what was may still be right.
  if (trace.reasons.includes('incomplete')) return { guess: 'unclear', why: { code: 'said_incomplete' } };
  return { guess: 'unclear', why: { code: 'no_reason' } };
}

/** A named source shorter than this ("a", "md") would be found inside most documents' ids. */
const MIN_NAMED_SOURCE_CHARS = 3;

/**
 * A document id's name as a person writes it: its last path segment without the extension, which
 * nobody types ("policies/refund-policy.md": "refund-policy", named by "Refund Policy").
 */
const documentName = (docId: string) => (docId.split('/').findLast((part) => part !== '') ?? docId).replace(/\.[a-z\d]{1,5}$/i, '');

/** Does the source a correction names point at this document? */
const namesDocument = (source: string, docId: string) => {
  const s = source.trim().toLowerCase();
  const doc = docId.toLowerCase();
  if (s.length < MIN_NAMED_SOURCE_CHARS) return false;
  return s.includes(doc) || doc.includes(s) || termOverlap(documentName(doc).replace(/[._/-]+/g, ' '), s) >= 0.99;
};

/**
 * Of `docs` (best ranked first), the one the source a correction names: its own id before one that
 * only holds it or is held in it ("policy.md" names policy.md, not privacy-policy.md), the closest
 * in length first, then the best ranked.
 */
export function namedDocument(source: string, docs: readonly string[]): string | undefined {
  const length = source.trim().length;
  const gap = (doc: string) => Math.abs(doc.length - length);
  return docs.filter((d) => namesDocument(source, d)).sort((a, b) => gap(a) - gap(b))[0];
}

/** The candidates one trace yields: none for a trace neither clearly bad nor clearly good. */
export function mineTrace(trace: MiningTrace, t: MiningThresholds): Candidate[] {
  const out: Candidate[] = [];
  const add = (chunk: MinedChunk, label: CandidateLabel, weight: number, evidence: Evidence[], guess: Guess, guessWhy: GuessWhy) =>
    out.push({ traceId: trace.traceId, query: trace.query, chunk, label, weight, evidence, guess, guessWhy });
  const byId = new Map(trace.chunks.map((c) => [c.chunkId, c]));

  if (isClearlyBad(trace.score, t.badTraceScore)) {
    const d = diagnose(trace);
    const flagged = new Set<string>();
    for (const f of trace.flagged) {
      const chunk = byId.get(f.chunkId);
      if (!chunk) continue;
      flagged.add(chunk.chunkId);
      add(chunk, 'negative', f.confidence, [{ code: 'flagged_wrong_source', confidence: f.confidence }], 'retrieval_failed', { code: 'flagged_this_source' });
    }
    for (const chunk of trace.chunks) {
      if (flagged.has(chunk.chunkId)) continue;
      if (d.closest && d.closest.chunk === chunk && d.guess === 'generation_failed') {
        add(chunk, 'positive', 0.8 * d.closest.overlap, [{ code: 'holds_correction_terms', share: d.closest.overlap }], d.guess, d.why);
      } else if (chunk.rank <= MINED_TOP_RANKS) {
        const weight = (Math.abs(trace.score) * 0.6) / chunk.rank;
        add(chunk, 'negative', weight, [{ code: 'ranked_on_bad_answer', rank: chunk.rank, score: trace.score }], d.guess, d.why);
      }
    }
    for (const c of trace.corrections) {
      const named = c.source
        ? namedDocument(
            c.source,
            trace.chunks.map((chunk) => chunk.sourceDocId),
          )
        : undefined;
      if (named === undefined) continue;
      for (const chunk of trace.chunks) {
        if (chunk.sourceDocId === named && !out.some((o) => o.chunk === chunk && o.label === 'positive')) {
          const i = out.findIndex((o) => o.chunk === chunk);
          if (i >= 0) out.splice(i, 1);
          add(chunk, 'positive', 0.7 * c.confidence, [{ code: 'correction_names_source', document: chunk.sourceDocId }], 'generation_failed', {
            code: 'named_document_retrieved',
          });
        }
      }
    }
  } else if (isClearlyGood(trace.score, t.goodTraceScore)) {
    const weights = new Map<string, { weight: number; evidence: Evidence[] }>();
    for (const e of trace.engaged) {
      if (!byId.has(e.chunkId)) continue;
      const w = weights.get(e.chunkId) ?? { weight: 0, evidence: [] };
      w.weight = Math.min(1, w.weight + ENGAGEMENT_WEIGHT[e.kind] * e.confidence);
      w.evidence.push({ code: ENGAGED[e.kind], score: trace.score });
      weights.set(e.chunkId, w);
    }
    for (const [chunkId, w] of weights) add(byId.get(chunkId)!, 'positive', w.weight, w.evidence, 'worked', { code: 'engaged_on_good_answer' });
  }
  return out;
}

/**
 * Expected value of reviewing an item: the strength of its evidence times its reach (a question
 * asked often matters more, with diminishing returns), so the queue starts where a confirmed
 * label changes most answers.
 */
export const expectedValue = (weight: number, traces: number): number => weight * (1 + Math.log(Math.max(1, traces)));
