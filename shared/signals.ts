/**
 * The one table of feedback signals: every signal type, the value it contributes to a trace's
 * score, and why. The collector stores `signalValue` from here, the nightly loop averages it, and
 * the dashboard and training pipeline read the same numbers, so they cannot drift apart.
 *
 * Values live on [-1, 1]: -1 is "this answer failed", +1 is "this answer worked". A value of
 * `null` marks context: the event is kept and shown, but it does not move the score (SQL AVG
 * skips NULL, so the worst-traces query needs no special case).
 */
export const SIGNALS = {
  /** The user pressed thumbs up: the clearest positive signal there is. */
  thumbs_up: { value: 1.0, group: 'vote', confidence: 0.9, kind: 'explicit', why: 'An explicit "this worked" from the user (seed weight).' },
  /** The user pressed thumbs down: the clearest negative signal there is. */
  thumbs_down: { value: -1.0, group: 'vote', confidence: 0.9, kind: 'explicit', why: 'An explicit "this failed" from the user (seed weight).' },
  /** The user took back their vote (pressed the same thumb again). */
  vote_cleared: {
    value: null,
    group: 'vote',
    confidence: 0,
    kind: 'explicit',
    why: 'Undoes the earlier vote; as the latest vote it supersedes it and adds nothing itself.',
  },
  /** A 1-5 star rating; the value is computed from the stars (see `signalValue`). */
  rating: {
    value: null,
    group: 'rating',
    confidence: 0.9,
    kind: 'explicit',
    why: 'Explicit but graded: 1 star maps to -1, 3 to 0, 5 to +1, so it sits on the same scale as a vote.',
  },
  /** Why a thumbs-down happened (didn't answer, incomplete, looks wrong, wrong source, other). */
  attribution: {
    value: null,
    group: null,
    confidence: 0.9,
    kind: 'explicit',
    why: 'Explains the thumbs-down that carries the value; counting it again would double-count one opinion.',
  },
  /** Free-text "what should the answer say?". */
  correction: {
    value: -0.8,
    group: null,
    confidence: 0.95,
    kind: 'explicit',
    why: 'The user took the effort to write the right answer: strong evidence the answer was wrong, routed to the document owner.',
  },
  /** A cited source flagged as the wrong one for this answer. */
  wrong_source: {
    value: -0.8,
    group: null,
    confidence: 0.9,
    kind: 'explicit',
    why: 'Points at one retrieved chunk as a hard-negative candidate: nearly as strong as a thumbs-down, and more precise.',
  },
  /** A support ticket names this answer as why the user turned to a person (sent by the backend or its helpdesk, often days later). */
  support_ticket: {
    value: -1.0,
    group: null,
    confidence: 0.9,
    kind: 'explicit',
    byBackend: true,
    why: 'The user escalated to a person because of this answer (seed: a ticket quoting it): as clear a failure as a thumbs-down, only found later.',
  },
  /** The user opened a cited source. */
  citation_click: {
    value: 0.5,
    group: null,
    confidence: 0.4,
    kind: 'implicit',
    why: 'The citation looked worth reading (seed weight); it does not prove the answer right.',
  },
  /** Time spent on an opened source or a visible in-page preview. */
  citation_dwell: {
    value: null,
    values: { focused: 0.3, glance: 0 },
    group: null,
    confidence: 0.6,
    kind: 'implicit',
    why: 'Focused reading (>= FOCUSED_DWELL_MS) scores +0.3, a glance 0: dwell confirms a click more than it judges the answer.',
  },
  /** The user copied the answer text. */
  copy_answer: { value: 0.7, group: null, confidence: 0.7, kind: 'implicit', why: 'People copy what they intend to use: a strong implicit positive.' },
  /** The user copied text of a cited source rather than the answer. */
  copy_source: {
    value: 0.2,
    group: null,
    confidence: 0.6,
    kind: 'implicit',
    why: 'Retrieval found something useful, but the user trusted the source over the answer: weakly positive.',
  },
  /** How long the answer was visible. */
  answer_dwell: {
    value: null,
    group: null,
    confidence: 0,
    kind: 'implicit',
    why: 'Long dwell can mean reading or confusion; kept as context for the nightly noise filter, never scored.',
  },
  /** The next query in the session was a paraphrase of this one (emitted on the first trace). */
  rephrase_within_session: {
    value: -0.6,
    group: null,
    confidence: 0.6,
    kind: 'implicit',
    why: 'Asking the same thing again soon after means the first answer did not work (seed weight).',
  },
  /** The next question of the session said this answer was wrong ("that's wrong", "不对"; recorded on this answer by the collector as it stores the traces, collector/storage/pushbacks.ts). */
  contradicted_by_follow_up: {
    value: -0.8,
    group: null,
    confidence: 0.6,
    kind: 'implicit',
    byBackend: true,
    why: 'Pushing back in the next question is nearly a thumbs-down in words, but read from phrasing alone it can misfire, so it is trusted less than a vote.',
  },
  /** The chat UI regenerated this answer. */
  regenerate: {
    value: -0.7,
    values: { late: -0.3 },
    group: null,
    confidence: 0.7,
    kind: 'implicit',
    why: 'A regenerate within REGENERATE_WINDOW_MS rejects the answer (seed weight); later ones score -0.3 (less certain).',
  },
  /** The page was hidden or closed soon after the answer with no interaction. */
  bounce: {
    value: -0.3,
    group: null,
    confidence: 0.3,
    kind: 'implicit',
    why: 'Leaving without touching the answer is a weak negative: the user may have got what they needed at a glance.',
  },
  /** A contextual prompt was shown. */
  prompt_shown: { value: null, group: null, confidence: 0, kind: 'context', why: 'Context for prompt fatigue and response-rate metrics.' },
  /** A contextual prompt was answered; a yes/no helpfulness answer counts like a softer vote. */
  prompt_answered: {
    value: null,
    values: { yes: 0.5, no: -0.5 },
    group: null,
    confidence: 0.7,
    kind: 'explicit',
    why: 'An answer "yes" scores +0.5 and "no" -0.5: solicited feedback is explicit but nudged, so weaker than a vote.',
  },
  /** A Core Web Vital of the page (INP, LCP, CLS), once per page session. */
  web_vitals: { value: null, group: null, confidence: 0, kind: 'context', why: 'Context: a slow page explains bounces without blaming the answer.' },
} as const satisfies Record<string, SignalSpec>;

export interface SignalSpec {
  /** Fixed contribution to the trace score, or null when it is computed from the detail or is context only. */
  readonly value: number | null;
  /** The values a signal takes depending on its detail, by name; `signalValue` picks one. */
  readonly values?: Readonly<Record<string, number>>;
  /**
   * How much one such signal, taken alone, tells about the answer, on [0, 1]: the nightly noise
   * filter starts from it. Explicit votes are near-certain; a click is biased by position and
   * mis-clicks; a bounce may mean the answer was read at a glance; context signals tell nothing.
   */
  readonly confidence: number;
  /** Explicit (the user said it), implicit (the user did something) or context (measured, judges nothing). */
  readonly kind: 'explicit' | 'implicit' | 'context';
  /** Signals in one group supersede each other per session and trace: only the latest counts. */
  readonly group: 'vote' | 'rating' | null;
  /**
   * Known only to the backend, which names the answer it is about (a helpdesk's ticket quoting it):
   * refused from a page's public write key, and never moved to another turn of the conversation.
   */
  readonly byBackend?: true;
  /** Why this value: the reasoning a maintainer needs before changing it. */
  readonly why: string;
}

/** Whether a signal is one only a backend sends (`byBackend`). */
export const isByBackend = (type: SignalType): boolean => (SIGNALS[type] as SignalSpec).byBackend === true;

export type SignalType = keyof typeof SIGNALS;
export const SIGNAL_TYPES = Object.keys(SIGNALS) as SignalType[];
