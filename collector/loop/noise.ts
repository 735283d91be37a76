/**
 * The noise filter (seed 002, 4.2), in three layers: named rules, a cross-check against the
 * trace's other signals and the history of the same query, and a confidence per signal on [0, 1].
 * Pure functions over one trace's events: the nightly job feeds them and stores the verdicts
 * beside the events, which stay as they arrived.
 */
import { contradictsAnswer } from '../../shared/contradiction.ts';
import { isFocusedDwell } from '../../shared/signal-value.ts';
import { SIGNALS, type SignalType } from '../../shared/signals.ts';
import { UNSPACED } from '../../shared/terms.ts';
import { CONTRADICTION_WINDOW_MS } from '../../shared/thresholds.ts';
import type { FollowUp } from './attribution.ts';

/** Each rule multiplies a signal's confidence by `factor`; `why` is what a reviewer reads. */
export const NOISE_RULES = {
  reversed_by_behaviour: {
    factor: 0.3,
    why: 'A negative vote followed on the same answer by a thumbs-up, a copy or focused reading of a source was most likely a slip.',
  },
  dug_into_after: {
    // Mild: asking more about an answer also shows what it left out (seed 002, 2.1), so the vote still counts.
    factor: 0.8,
    why: 'A thumbs-down followed in the next question by one digging into the same answer, without saying it was wrong: the user found it worth asking about, so the vote may have been a slip.',
  },
  flooding: {
    factor: 0.05,
    why: 'One session, user or address sent more negative feedback than a person reading answers does: abuse, a test or a broken UI.',
  },
  double_submit: {
    factor: 0,
    why: 'The same signal on the same answer from the same session again within seconds: one opinion sent twice.',
  },
  too_fast: {
    factor: 0.2,
    why: 'The vote came sooner after the answer was shown than a person could have read it.',
  },
  contradicts_trace: {
    factor: 0.6,
    why: "The answer's other confident signals point the other way.",
  },
  against_query_history: {
    factor: 0.7,
    why: 'Answers to the same question were judged clearly the other way by many others: kept for review, trusted less.',
  },
  terse_text: {
    factor: 0.7,
    why: 'Free text too short to say what was wrong.',
  },
  asked_on: {
    factor: 0,
    why: 'A bounce from an answer its conversation went on from with another question: the user left the page after asking on, not after this answer.',
  },
} as const;

export type NoiseRule = keyof typeof NOISE_RULES;

/** Below this confidence a signal is kept and shown but never mined or counted for training. */
export const LOW_CONFIDENCE = 0.3;
/** The same signal again within this window is a double submit (the widget suppresses 800 ms). */
export const DOUBLE_SUBMIT_MS = 3_000;
/** Flooding: at least this many answers one source gave negative explicit signals in the window… */
export const FLOOD_MIN_NEGATIVES = 10;
/** …at this rate or faster (a person reading answers does not say 20 an hour failed)… */
export const FLOOD_NEGATIVES_PER_HOUR = 20;
/** …or this share of all the answers the project's users gave negative explicit signals in the window. */
export const FLOOD_SHARE = 0.25;
/**
 * How far a backend's clock, which dates answers, may run ahead of the collector's, which dates
 * arrivals, when the flooding rule bounds a source's span by them. Clocks further apart bound nothing.
 */
export const FLOOD_CLOCK_TOLERANCE_MS = 5 * 60_000;
/** Skimming pace for the too-fast rule: about 1,000 words a minute, between a floor and a cap. */
export const MIN_READ_MS_PER_WORD = 60;
export const MIN_READ_FLOOR_MS = 800;
export const MIN_READ_CAP_MS = 5_000;
/** The query history is trusted once this many other traces of it were scored… */
export const HISTORY_MIN_TRACES = 5;
/** …and their mean is at least this far from neutral. */
export const HISTORY_CLEAR_MEAN = 0.5;
/** Free text shorter than this many characters says little; a Chinese or Japanese character, which says about a word, counts as two. */
export const TERSE_TEXT_CHARS = 8;
/** The digging follow-up is asked after the vote within a turn of the same conversation. */
export const DUG_INTO_WITHIN_MS = CONTRADICTION_WINDOW_MS;

/** One stored event, as the loop reads it. */
export interface LoopEvent {
  eventId: string;
  traceId: string;
  sessionId: string;
  signalType: SignalType;
  /** From the signal table; null for context. */
  signalValue: number | null;
  detail: Record<string, unknown>;
  clientTs: number;
  /** A later event of the same group replaced it (vote flips). */
  superseded: boolean;
  /** Time from the answer being shown to the event, when the widget measured it. */
  shownMs?: number | null;
  /**
   * Why an earlier night found its source flooding: assessed again (its trace touched by a later
   * event), it stays distrusted though the flood is older than the nights that look for floods.
   */
  floodedBefore?: string;
}

/** What a rule found, in words a reviewer can check. */
export interface RuleHit {
  rule: NoiseRule;
  reason: string;
}

export interface Assessment {
  eventId: string;
  /** On [0, 1]: the signal's base confidence times every rule's factor. */
  confidence: number;
  rules: RuleHit[];
}

/** A source of feedback whose negative volume is counted for the flooding rule. */
export interface SourceCount {
  kind: 'session' | 'user' | 'ip';
  key: string;
  /** Answers it gave negative explicit signals (thumbs-down, low ratings, corrections, wrong-source flags) in the window. */
  negatives: number;
  /** From the first to the last of those signals. */
  spanMs: number;
}

const sourceId = (kind: SourceCount['kind'], key: string) => `${kind}:${key}`;

/** The sources that flood, each with the reason, as `kind:key`. */
export function floodingSources(counts: readonly SourceCount[], projectNegatives: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of counts) {
    if (c.negatives < FLOOD_MIN_NEGATIVES) continue;
    const perHour = c.negatives / Math.max(c.spanMs / 3_600_000, 1 / 60);
    const share = projectNegatives > 0 ? c.negatives / projectNegatives : 0;
    if (perHour >= FLOOD_NEGATIVES_PER_HOUR) {
      out.set(sourceId(c.kind, c.key), `${c.kind} said ${c.negatives} answers failed at ${Math.round(perHour)} an hour`);
    } else if (share >= FLOOD_SHARE) {
      out.set(sourceId(c.kind, c.key), `${c.kind} said ${c.negatives} answers failed, ${Math.round(share * 100)}% of those the project's users said failed`);
    }
  }
  return out;
}

/** Signals by which a user says an answer failed, when their value is negative: what the flooding rule counts. */
export const NEGATIVE_EXPLICIT: readonly SignalType[] = ['thumbs_down', 'rating', 'correction', 'wrong_source'];

export const isNegativeExplicit = (e: Pick<LoopEvent, 'signalType' | 'signalValue'>): boolean =>
  NEGATIVE_EXPLICIT.includes(e.signalType) && (e.signalValue ?? 0) < 0;

/** Each character of a script written without spaces (Chinese, Japanese) is read as a word, as its own run of other text is. */
const READ_WORD = new RegExp(`${UNSPACED.source}|(?:(?!${UNSPACED.source})\\S)+`, 'gu');

const UNSPACED_CHARACTERS = new RegExp(UNSPACED.source, 'gu');
/** A text's length as the terse rule reads it: a character of a script written without spaces counts twice. */
const textLength = (text: string): number => text.length + (text.match(UNSPACED_CHARACTERS)?.length ?? 0);

/** How long a person needs at least before judging an answer of this length. */
export const minReadMs = (answer: string): number =>
  Math.min(MIN_READ_CAP_MS, Math.max(MIN_READ_FLOOR_MS, (answer.match(READ_WORD)?.length ?? 0) * MIN_READ_MS_PER_WORD));

export interface TraceContext {
  /** The answer's text, for the too-fast rule (empty while the trace has not arrived). */
  answer: string;
  /** The user hash of the trace, for the flooding rule. */
  userIdHash: string | null;
  /** Per event id: the hashed client address it came from. */
  ipHashOf?: (eventId: string) => string | null;
  /** Flooding sources of the window, from `floodingSources`. */
  flooding: ReadonlyMap<string, string>;
  /** Scores of other traces of the same (near-identical) query, from the aggregates. */
  queryHistory?: { traces: number; meanScore: number };
  /**
   * The next question of the answer's conversation, when there is one: how it follows the answer
   * (attribution's `followUpOn`). Read for a thumbs-down and a bounce.
   */
  nextQuestion?: { query: string; at: number; follows: FollowUp | null };
}

const VOTES: ReadonlySet<SignalType> = new Set(['thumbs_up', 'thumbs_down', 'rating']);
const TEXTS: Partial<Record<SignalType, string>> = { correction: 'text', attribution: 'text', prompt_answered: 'text' };

/** A signal after a negative vote on the same answer that shows the user found it useful after all. */
const reverses = (x: LoopEvent): boolean =>
  x.signalType === 'thumbs_up' ||
  x.signalType === 'copy_answer' ||
  (x.signalType === 'rating' && (x.signalValue ?? 0) > 0) ||
  (x.signalType === 'citation_dwell' && isFocusedDwell(x.detail.ms));

/**
 * Why a thumbs-down looks like a slip because the next question, asked soon after it, digs into
 * the same answer (seed 002, 4.2: "先点踩又追问细节"); undefined when it does not, or pushes back.
 */
function dugIntoAfter(e: LoopEvent, next: TraceContext['nextQuestion']): string | undefined {
  if (e.signalType !== 'thumbs_down' || next?.follows?.kind !== 'digs') return undefined;
  const gap = next.at - e.clientTs;
  if (gap < 0 || gap > DUG_INTO_WITHIN_MS || contradictsAnswer(next.query)) return undefined;
  return `the next question, ${Math.round(gap / 1000)} s later, digs into this answer (${Math.round(next.follows.overlap * 100)}% of its terms are in it)`;
}

/**
 * For each event (in time order), the first later event of its session that reverses a vote: one
 * pass from the end, so a trace flooded with thousands of votes costs no more than it holds.
 */
function reversalsAfter(sorted: readonly LoopEvent[]): (LoopEvent | undefined)[] {
  const next = new Map<string | null, LoopEvent>();
  const out = new Array<LoopEvent | undefined>(sorted.length);
  for (let i = sorted.length - 1; i >= 0; i--) {
    const e = sorted[i]!;
    out[i] = next.get(e.sessionId);
    if (reverses(e)) next.set(e.sessionId, e);
  }
  return out;
}

/** What makes two events one signal sent twice (`sameSignal`), as a key. */
const signalKey = (e: LoopEvent) => JSON.stringify([e.sessionId, e.signalType, e.signalValue, e.detail.chunkId, e.detail.ticketId]);

/**
 * Whether `x` is `e` sent again: from the same session, with the same type, value and source or
 * ticket (two sources flagged or clicked in turn, or two tickets filed, are two signals). A vote
 * superseded by a later one is not: the later one already stands for both, and zeroing it too
 * would lose the vote.
 */
const sameSignal = (x: LoopEvent, e: LoopEvent): boolean =>
  !x.superseded &&
  x.sessionId === e.sessionId &&
  x.signalType === e.signalType &&
  x.signalValue === e.signalValue &&
  x.detail.chunkId === e.detail.chunkId &&
  x.detail.ticketId === e.detail.ticketId;

/**
 * Assesses every event of one trace. Events of one trace come from few sessions (usually one);
 * the rules compare each event with the others, so the whole trace is assessed at once and the
 * verdicts do not depend on which night an event arrived.
 */
export function assessTraceEvents(events: readonly LoopEvent[], ctx: TraceContext): Assessment[] {
  const sorted = [...events].sort((a, b) => a.clientTs - b.clientTs || (a.eventId < b.eventId ? -1 : 1));
  const first = sortedLayerOne(sorted, ctx);
  // Layer 2 compares each event with the others that survived layer 1: their weights are summed once.
  const weights = sorted.map((x, i) => trustedWeight(x, first[i]!));
  const total = { positive: 0, negative: 0 };
  for (const w of weights)
    if (w > 0) total.positive += w;
    else total.negative -= w;
  return first.map((a, i) => {
    const e = sorted[i]!;
    const rules = [...a.rules, ...crossCheck(e, weights[i]!, total, ctx)];
    return { eventId: e.eventId, confidence: confidenceOf(e.signalType, rules), rules };
  });
}

const roundWeight = (x: number) => Math.round(x * 1e9) / 1e9;

/** An event's value times its layer-1 confidence, when it is a trusted signal with a value; else 0. */
function trustedWeight(x: LoopEvent, a: Assessment): number {
  if (x.superseded || !x.signalValue || a.confidence < LOW_CONFIDENCE) return 0;
  return x.signalValue * a.confidence;
}

/** Layer 3: the signal's base confidence times the factor of every rule that fired. */
const confidenceOf = (type: SignalType, rules: readonly RuleHit[]): number =>
  Math.round(rules.reduce((c: number, hit) => c * NOISE_RULES[hit.rule].factor, SIGNALS[type].confidence) * 1000) / 1000;

function sortedLayerOne(sorted: readonly LoopEvent[], ctx: TraceContext): Assessment[] {
  const reversals = reversalsAfter(sorted);
  // The latest earlier event of each signal not superseded: the only one a double submit can be sent again of, being the closest in time.
  const lastOfSignal = new Map<string, LoopEvent>();
  return sorted.map((e, i) => {
    const rules: RuleHit[] = [];
    const value = e.signalValue ?? 0;
    if (value < 0 && VOTES.has(e.signalType)) {
      const r = reversals[i];
      if (r) rules.push({ rule: 'reversed_by_behaviour', reason: `${r.signalType} ${Math.round((r.clientTs - e.clientTs) / 1000)} s later` });
      const dug = dugIntoAfter(e, ctx.nextQuestion);
      if (dug) rules.push({ rule: 'dug_into_after', reason: dug });
    }
    if (isNegativeExplicit(e)) {
      const sources: [SourceCount['kind'], string | null][] = [
        ['session', e.sessionId],
        ['user', ctx.userIdHash],
        ['ip', ctx.ipHashOf?.(e.eventId) ?? null],
      ];
      const found = sources.map(([kind, key]) => (key === null ? undefined : ctx.flooding.get(sourceId(kind, key)))).find(Boolean);
      const reason = found ?? e.floodedBefore;
      if (reason) rules.push({ rule: 'flooding', reason });
    }
    const key = signalKey(e);
    const before = lastOfSignal.get(key);
    const twin = before && sameSignal(before, e) && e.clientTs - before.clientTs <= DOUBLE_SUBMIT_MS ? before : undefined;
    if (!e.superseded) lastOfSignal.set(key, e);
    if (twin && SIGNALS[e.signalType].confidence > 0 && e.signalType !== 'citation_dwell') {
      rules.push({ rule: 'double_submit', reason: `same ${e.signalType} ${e.clientTs - twin.clientTs} ms after ${twin.eventId}` });
    }
    if (VOTES.has(e.signalType) && typeof e.shownMs === 'number' && ctx.answer) {
      const needed = minReadMs(ctx.answer);
      if (e.shownMs < needed)
        rules.push({ rule: 'too_fast', reason: `voted ${e.shownMs} ms after the answer was shown; reading it takes ${needed} ms or more` });
    }
    // Seed 000: a bounce is the session abandoned right after the answer; one that asked on was not.
    if (e.signalType === 'bounce' && ctx.nextQuestion)
      rules.push({ rule: 'asked_on', reason: 'the conversation went on with another question after this answer' });
    const textField = TEXTS[e.signalType];
    const text = textField ? e.detail[textField] : undefined;
    if (typeof text === 'string' && textLength(text.trim()) < TERSE_TEXT_CHARS) {
      rules.push({ rule: 'terse_text', reason: `${text.trim().length} characters of text` });
    }
    return { eventId: e.eventId, confidence: confidenceOf(e.signalType, rules), rules };
  });
}

/**
 * Layer 2: the event against the trace's other trusted signals (`total`, the weights of all of them,
 * less `own`, the event's) and the query's history.
 */
function crossCheck(e: LoopEvent, own: number, total: { positive: number; negative: number }, ctx: TraceContext): RuleHit[] {
  const value = e.signalValue ?? 0;
  if (value === 0 || e.superseded) return [];
  const hits: RuleHit[] = [];
  // Rounded: a sum less one of its terms may land a hair below the sum of the others (0.8 as 0.7999…).
  const positive = roundWeight(total.positive - Math.max(own, 0));
  const negative = roundWeight(total.negative - Math.max(-own, 0));
  const [along, against] = value > 0 ? [positive, negative] : [negative, positive];
  if (against >= 0.8 && along < against / 2) {
    hits.push({ rule: 'contradicts_trace', reason: `the answer's other signals weigh ${against.toFixed(2)} against this one and ${along.toFixed(2)} with it` });
  }
  const h = ctx.queryHistory;
  if (h && h.traces >= HISTORY_MIN_TRACES && Math.abs(h.meanScore) >= HISTORY_CLEAR_MEAN && Math.sign(h.meanScore) !== Math.sign(value)) {
    hits.push({ rule: 'against_query_history', reason: `${h.traces} other answers to this question scored ${h.meanScore.toFixed(2)} on average` });
  }
  return hits;
}
