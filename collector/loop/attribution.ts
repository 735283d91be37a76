/**
 * Multi-turn attribution (seed 002, 4.5): a negative signal given late in a conversation may be
 * about an earlier answer. Over a window of the last three turns up to the one the signal was
 * given on, each candidate is scored by what ties the signal to it, and the best one wins.
 */
import { querySimilarity } from '../../shared/similarity.ts';
import { termOverlap } from '../../shared/terms.ts';
import { REPHRASE_SIMILARITY } from '../../shared/thresholds.ts';

/** Turns looked back over, the signal's own included. */
export const ATTRIBUTION_WINDOW = 3;
/**
 * Answers the window holds at most. A turn's regenerated answers count as one turn, so without a
 * bound a session that regenerates without end would put thousands of answers in one window, and
 * the nightly job would read them all.
 */
export const ATTRIBUTION_MAX_ANSWERS = 20;
/** Weights of the evidence; the signal's own turn starts ahead, so only evidence moves it. */
export const ATTRIBUTION_WEIGHTS = {
  /** The turn the widget tied the signal to. */
  ownTurn: 0.35,
  /** The signal's text (correction, reason) repeats this answer's terms. */
  textOverlap: 0.6,
  /** The next query re-asks this turn's question: the clearest sign this answer failed. */
  rephrased: 0.3,
  /** The next query digs into what this answer said: weaker, a conversation also just goes on. */
  followUp: 0.1,
  /** The signal came soon after this answer was shown (halves every HALF_LIFE_MS). */
  recency: 0.15,
  /** The text points back explicitly ("your first answer", "earlier", "刚才"). */
  explicitReference: 0.4,
};
/** Half-life of the recency evidence. */
export const RECENCY_HALF_LIFE_MS = 60_000;

/**
 * Words that point back to an earlier answer, in the widget's two languages. "Before", "之前" and
 * "previous" only as said of an answer: alone they are mostly about time ("ask before 14 days
 * pass") or about something else ("that is the previous policy").
 */
const BACK_REFERENCE =
  /\b(earlier|previous (answer|reply|response|message|one)|first answer|you said|last answer|(said|told me|answered|mentioned|wrote) (that |it |this )?before)\b|之前(说|讲|提到|回答|的回答)|刚才|上一个|上一条|前面|第一个回答/i;

/** One answer of the session. */
export interface Turn {
  traceId: string;
  query: string;
  answer: string;
  /** When it was produced (the trace's createdAt). */
  at: number;
  /** Its place in the conversation, when the backend gave one: a regenerate repeats it. */
  turnIndex?: number | null;
}

/** The negative signal to attribute. */
export interface NegativeSignal {
  traceId: string;
  clientTs: number;
  /** Text the user wrote with it, if any (correction, "something else"). */
  text?: string;
}

export interface Attribution {
  traceId: string;
  /** Why this turn, in words: the evidence that decided it. */
  reason: string;
  /** Each candidate's score, for the trace view. */
  scores: { traceId: string; score: number }[];
}

type Evidence = [what: string, weight: number];

/** Above this share of its terms found in an answer, the next question digs into that answer. */
export const FOLLOW_UP_OVERLAP = 0.2;

/**
 * How the next question of a conversation follows a turn: the one reading of it that attribution
 * and the noise filter (a thumbs-down then a question digging into the answer) share.
 */
export type FollowUp =
  | { kind: 'regenerated' }
  /** Re-asks the turn's question, `similarity` being how near (from REPHRASE_SIMILARITY). */
  | { kind: 'reasks'; similarity: number }
  /** Digs into what the turn's answer said: `overlap` of its terms are in that answer. */
  | { kind: 'digs'; overlap: number };

/** How `next`, the turn after `t` in their conversation, follows it; null when it goes elsewhere. */
export function followUpOn(t: Turn, next: Turn): FollowUp | null {
  // A regenerate repeats its turn (and its question).
  if (t.turnIndex != null && next.turnIndex === t.turnIndex) return { kind: 'regenerated' };
  const similarity = querySimilarity(t.query, next.query);
  if (similarity >= REPHRASE_SIMILARITY) return { kind: 'reasks', similarity };
  const overlap = termOverlap(next.query, t.answer);
  return overlap > FOLLOW_UP_OVERLAP ? { kind: 'digs', overlap } : null;
}

/** How the next question follows turn `idx` of a conversation (null: it does not, or there is none). */
export type NextQuestionSays = (idx: number) => FollowUp | null;

/**
 * How the next question follows each turn of `turns`, worked out once per turn when first asked.
 * It does not depend on the signal, and a bad answer draws several negative signals (a
 * thumbs-down, a regenerate, a rephrase): a caller attributing several signals of one
 * conversation, or judging its votes, passes the same one to each, instead of tokenizing its
 * answers and queries again.
 */
export function nextQuestions(turns: readonly Turn[]): NextQuestionSays {
  const known: (FollowUp | null)[] = [];
  return (idx) => {
    const memo = known[idx];
    if (memo !== undefined) return memo;
    const next = turns[idx + 1];
    const says = next ? followUpOn(turns[idx]!, next) : null;
    known[idx] = says;
    return says;
  };
}

/** What a follow-up says of the turn it follows, as attribution weighs it. */
function evidenceOf(f: FollowUp): Evidence {
  const w = ATTRIBUTION_WEIGHTS;
  switch (f.kind) {
    // As clear a sign as the question asked again, said as what it is.
    case 'regenerated':
      return ['the answer was regenerated', w.rephrased];
    case 'reasks':
      return ['the next question re-asks it', w.rephrased * f.similarity];
    case 'digs':
      return ['the next question follows up on this answer', w.followUp * f.overlap];
  }
}

/**
 * Where the window of `turns[own]` starts: ATTRIBUTION_WINDOW turns back, the own included. The
 * answers of one turn (a regenerate repeats its turnIndex) are one turn, not one each, so a
 * regenerated answer does not push the turn before it out of the window; at most
 * ATTRIBUTION_MAX_ANSWERS answers all told.
 */
function windowStart(turns: readonly Turn[], own: number): number {
  let seen = 1;
  let start = own;
  for (let i = own - 1; i >= 0 && own - i < ATTRIBUTION_MAX_ANSWERS; i--) {
    const sameTurn = turns[i]!.turnIndex != null && turns[i]!.turnIndex === turns[i + 1]!.turnIndex;
    if (!sameTurn && ++seen > ATTRIBUTION_WINDOW) break;
    start = i;
  }
  return start;
}

/**
 * The turn `signal` most likely refers to, among the last ATTRIBUTION_WINDOW turns up to its own
 * (`turns` in conversation order; `nextSays` of the same turns). A signal on the first turn, or
 * with no turns known, stays where it is.
 */
export function attribute(signal: NegativeSignal, turns: readonly Turn[], nextSays = nextQuestions(turns)): Attribution {
  const own = turns.findIndex((t) => t.traceId === signal.traceId);
  if (own <= 0) return { traceId: signal.traceId, reason: 'no earlier turn', scores: [] };
  const w = ATTRIBUTION_WEIGHTS;
  const candidates = turns.slice(windowStart(turns, own), own + 1);
  const pointsBack = signal.text ? BACK_REFERENCE.test(signal.text) : false;
  const scored = candidates.map((t) => {
    const evidence: Evidence[] = [];
    if (t.traceId === signal.traceId) evidence.push(['the turn it was given on', w.ownTurn]);
    if (signal.text) {
      const overlap = termOverlap(signal.text, t.answer);
      if (overlap > 0) evidence.push([`its text shares ${Math.round(overlap * 100)}% of its terms with this turn`, w.textOverlap * overlap]);
    }
    const next = nextSays(turns.indexOf(t));
    if (next) evidence.push(evidenceOf(next));
    const age = Math.max(0, signal.clientTs - t.at);
    evidence.push(['recency', w.recency * 0.5 ** (age / RECENCY_HALF_LIFE_MS)]);
    if (pointsBack && t.traceId !== signal.traceId) evidence.push(['the text points back to an earlier answer', w.explicitReference]);
    return { turn: t, evidence, score: evidence.reduce((s, [, x]) => s + x, 0) };
  });
  const best = scored.reduce((a, b) => (b.score > a.score ? b : a));
  const decisive = best.evidence.filter(([what]) => what !== 'recency').sort((a, b) => b[1] - a[1]);
  return {
    traceId: best.turn.traceId,
    reason: decisive.length ? decisive.map(([what]) => what).join('; ') : 'most recent answer',
    scores: scored.map((s) => ({ traceId: s.turn.traceId, score: Math.round(s.score * 1000) / 1000 })),
  };
}
