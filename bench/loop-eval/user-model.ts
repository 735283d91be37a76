/**
 * The simulated user: what one person does with one answer, given which of its cited sources
 * truly answer their question (the collection's judgements stand for what the user knows).
 *
 * Clicks follow the position-based model (PBM, Craswell et al. 2008, "An experimental comparison
 * of click position-bias models"): a citation is clicked only if examined, with probability
 * `examineTop / position^eta` (eta = 1 as in the simulations of Joachims et al. 2017, "Unbiased
 * learning-to-rank with biased feedback"), and then with a probability that depends on its
 * relevance (`clickIfRelevant`, and `clickIfNotRelevant` for attractive-but-wrong sources and
 * mis-clicks, the epsilon-minus noise of the same papers). Reading (focused dwell) and copying
 * follow a click, and are far more likely on a relevant source. Explicit feedback comes on a few
 * percent of answers; an unhelpful answer makes a rephrase, a regenerate or a bounce more likely.
 * Every figure is an assumption of the simulation, stated here and printed with the results.
 */
import { between, chance, pick, type Rng } from './random.ts';

export const USER_MODEL = {
  /** PBM: probability the first citation is examined; position k is examined with examineTop / k^eta. */
  examineTop: 0.7,
  eta: 1,
  /** Click probability of an examined citation that answers the question, and of one that does not. */
  clickIfRelevant: 0.7,
  clickIfNotRelevant: 0.1,
  /** After a click: focused reading (at least the widget's 15 s) and copying from the source. */
  readIfRelevant: 0.7,
  readIfNotRelevant: 0.15,
  copySourceIfRelevant: 0.15,
  copySourceIfNotRelevant: 0.01,
  /** Copying the answer itself. */
  copyAnswerIfHelpful: 0.1,
  copyAnswerIfNot: 0.01,
  /** Answers that get a thumb at all ("a few percent"), and thumbs pressed the wrong way. */
  voteRate: 0.05,
  wrongThumb: 0.05,
  /** After a thumbs-down: a reason, a wrong-source flag on a cited source that does not answer, a correction. */
  reasonAfterDown: 0.5,
  flagAfterDown: 0.3,
  correctionAfterDown: 0.15,
  /** A correction names the right document (else it only says what the answer should be). */
  correctionNamesSource: 0.5,
  /** When nothing cited answers: re-ask in other words, regenerate, or leave at once. */
  rephraseIfUnhelpful: 0.35,
  /** A rephrase that first says the answer was wrong ("That's wrong.", "Are you sure?"), which the collector marks on it. */
  pushBackOnRephrase: 0.3,
  regenerateIfUnhelpful: 0.12,
  bounceIfUnhelpful: 0.15,
  /** Any answer: ask another question in the same session. */
  followUp: 0.25,
  /** Turns a session has at most. */
  maxTurns: 4,
  /** A thumbs-down pressed by mistake, then the answer copied after all. */
  misclickDown: 0.02,
} as const;

export type UserModel = typeof USER_MODEL;

/** How a user who pushes back opens the question asked again: each reads as a pushback to `contradictsAnswer`. */
export const PUSHBACKS = ["That's wrong.", 'Are you sure?', "No, that's not right.", "That's not what I asked."] as const;

export interface ShownCitation {
  chunkId: string;
  sourceDocId: string;
}

/** One event the user's browser would send, `offsetMs` after the answer appeared. */
export interface SimEvent {
  signalType: string;
  detail?: Record<string, unknown>;
  offsetMs: number;
}

export type Next = 'rephrase' | 'regenerate' | 'follow_up' | 'leave';

export interface Reaction {
  /** Some cited source answers the question. */
  helpful: boolean;
  events: SimEvent[];
  next: Next;
  /** Citations clicked, by position (1-based), for the click statistics. */
  clicked: number[];
}

export interface RightSource {
  docId: string;
  /** A sentence of the right document: what the user says the answer should be. */
  sentence: string;
}

export function react(
  r: Rng,
  citations: readonly ShownCitation[],
  relevant: ReadonlySet<string>,
  right: RightSource | undefined,
  turn: number,
  m: UserModel = USER_MODEL,
): Reaction {
  const events: SimEvent[] = [];
  const clicked: number[] = [];
  const isRelevant = (c: ShownCitation) => relevant.has(c.sourceDocId);
  const helpful = citations.some(isRelevant);
  let at = between(r, 4_000, 9_000);

  for (const [i, c] of citations.entries()) {
    const examined = chance(r, m.examineTop / (i + 1) ** m.eta);
    if (!examined || !chance(r, isRelevant(c) ? m.clickIfRelevant : m.clickIfNotRelevant)) continue;
    clicked.push(i + 1);
    events.push({ signalType: 'citation_click', detail: { chunkId: c.chunkId }, offsetMs: at });
    const read = chance(r, isRelevant(c) ? m.readIfRelevant : m.readIfNotRelevant);
    const ms = read ? between(r, 16_000, 60_000) : between(r, 1_500, 6_000);
    at += ms;
    events.push({ signalType: 'citation_dwell', detail: { chunkId: c.chunkId, ms, mode: 'preview' }, offsetMs: at });
    if (chance(r, isRelevant(c) ? m.copySourceIfRelevant : m.copySourceIfNotRelevant))
      events.push({ signalType: 'copy_source', detail: { chunkId: c.chunkId, chars: between(r, 60, 400) }, offsetMs: (at += 2_000) });
  }
  if (chance(r, helpful ? m.copyAnswerIfHelpful : m.copyAnswerIfNot))
    events.push({ signalType: 'copy_answer', detail: { chars: between(r, 80, 500) }, offsetMs: (at += 3_000) });

  if (chance(r, m.voteRate)) {
    const up = chance(r, m.wrongThumb) ? !helpful : helpful;
    events.push({ signalType: up ? 'thumbs_up' : 'thumbs_down', offsetMs: (at += 2_000) });
    if (!up) {
      const wrong = citations.filter((c) => !isRelevant(c));
      if (chance(r, m.reasonAfterDown))
        events.push({
          signalType: 'attribution',
          detail: { reason: pick(r, wrong.length ? (['wrong_source', 'not_answered', 'incomplete'] as const) : (['incomplete', 'looks_wrong'] as const)) },
          offsetMs: (at += 3_000),
        });
      if (wrong.length && chance(r, m.flagAfterDown))
        events.push({ signalType: 'wrong_source', detail: { chunkId: wrong[0]!.chunkId }, offsetMs: (at += 3_000) });
      if (right && !helpful && chance(r, m.correctionAfterDown))
        events.push({
          signalType: 'correction',
          detail: { text: right.sentence, ...(chance(r, m.correctionNamesSource) && { source: right.docId }) },
          offsetMs: (at += 25_000),
        });
    }
  } else if (chance(r, m.misclickDown)) {
    events.push({ signalType: 'thumbs_down', offsetMs: 1_200 });
    events.push({ signalType: 'copy_answer', detail: { chars: between(r, 80, 300) }, offsetMs: (at += 4_000) });
  }

  let next: Next = 'leave';
  const more = turn + 1 < m.maxTurns;
  if (!helpful) {
    const x = r();
    if (more && x < m.rephraseIfUnhelpful) next = 'rephrase';
    else if (more && x < m.rephraseIfUnhelpful + m.regenerateIfUnhelpful) next = 'regenerate';
    else if (x < m.rephraseIfUnhelpful + m.regenerateIfUnhelpful + m.bounceIfUnhelpful && events.length === 0) {
      events.push({ signalType: 'bounce', detail: { ms: between(r, 2_000, 9_000) }, offsetMs: 9_000 });
      return { helpful, events, next: 'leave', clicked };
    }
  }
  if (next === 'leave' && more && chance(r, m.followUp)) next = 'follow_up';
  return { helpful, events, next, clicked };
}
