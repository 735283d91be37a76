/**
 * The answer each conversation is at, so that a follow-up saying it was wrong ("that's wrong",
 * "不对") is reported on it as `contradicted_by_follow_up`: the backend sees every question of a
 * session, the page only the answers it shows. Kept in memory per process: a follow-up served by
 * another instance than the answer before it goes unreported, which loses a signal and invents none.
 */
import { contradictsAnswer } from '../shared/contradiction.ts';
import { remember } from '../shared/remember.ts';
import { CONTRADICTION_WINDOW_MS } from '../shared/thresholds.ts';

/** Conversations remembered; the one answered longest ago is forgotten first. */
const MAX_SESSIONS = 10_000;

interface Answered {
  traceId: string;
  turnIndex: number | undefined;
  createdAt: number;
}

/** What a trace needs for this: anything else given to `logTrace` is the schema's to refuse. */
interface TurnLike {
  traceId?: unknown;
  sessionId?: unknown;
  turnIndex?: unknown;
  query?: unknown;
  createdAt?: unknown;
}

export interface Contradiction {
  /** The answer the follow-up says was wrong. */
  traceId: string;
  sessionId: string;
  /** When the follow-up was asked. */
  at: number;
  detail: { nextTraceId: string; gapMs: number };
}

export class FollowUps {
  private readonly answered = new Map<string, Answered>();

  constructor(private readonly max = MAX_SESSIONS) {}

  /** Notes the trace as its session's latest answer; the contradiction to report if it pushes back on the one before. */
  next(trace: TurnLike): Contradiction | undefined {
    const { traceId, sessionId, query, createdAt } = trace ?? {};
    const turnIndex = typeof trace?.turnIndex === 'number' ? trace.turnIndex : undefined;
    if (typeof traceId !== 'string' || typeof sessionId !== 'string' || typeof query !== 'string' || typeof createdAt !== 'number') return undefined;
    const before = this.answered.get(sessionId);
    // Turns are ordered by their index when both have one, else by time.
    const turnsApart = turnIndex !== undefined && before?.turnIndex !== undefined ? turnIndex - before.turnIndex : undefined;
    // A turn answered again (a regenerate, a retry of the same trace) stays the answer to push back on.
    if (before && (turnsApart ?? createdAt - before.createdAt) < 0) return undefined;
    remember(this.answered, sessionId, { traceId, turnIndex, createdAt }, this.max);
    if (!before || before.traceId === traceId || (turnsApart ?? 1) === 0) return undefined;
    const gapMs = createdAt - before.createdAt;
    if (gapMs < 0 || gapMs > CONTRADICTION_WINDOW_MS || !contradictsAnswer(query)) return undefined;
    return { traceId: before.traceId, sessionId, at: createdAt, detail: { nextTraceId: traceId, gapMs } };
  }
}
