/**
 * One simulated week of traffic: sessions drawn from the traffic queries by popularity (a Zipf law
 * over a seeded order, so popular questions come back week after week), some worded in one of the
 * query's usual variants, each answer reacted to by the user model, unhelpful answers re-asked in
 * other words (some saying first that the answer was wrong) or regenerated, some sessions going on to another question; plus one abusive
 * session flooding thumbs-downs. Asks go through the demo's backend one at a time, with the
 * demo's clock set to the simulated moment; events go to the collector in batches.
 */

import { formatOf } from '../../demo/corpus/chunk.ts';
import { sentences } from '../../demo/server/sentences.ts';
import type { FeedbackEventInput } from '../../shared/schema/event.ts';
import { querySimilarity } from '../../shared/similarity.ts';
import { queryKey } from '../../shared/terms.ts';
import { REPHRASE_SIMILARITY, REPHRASE_WINDOW_MS } from '../../shared/thresholds.ts';
import type { Collection, JudgedQuery } from './collection.ts';
import { type Answer, ask, type EventSink } from './http.ts';
import { paraphrase } from './paraphrase.ts';
import { between, chance, pick, type Rng, shuffled } from './random.ts';
import { PUSHBACKS, type RightSource, react, type SimEvent, USER_MODEL, type UserModel } from './user-model.ts';

export const TRAFFIC_MODEL = {
  /** Zipf exponent of query popularity: rank r is asked in proportion to 1 / r^s. */
  zipf: 0.7,
  /** Share of asks worded as one of the query's usual variants instead of as written. */
  variantShare: 0.3,
  /** Usual variants per query. */
  variantsPerQuery: 2,
  /** Answers the abusive session thumbs down each week, 0.4 s apart. */
  floodAnswers: 30,
} as const;

/** The moving clock the demo stamps traces with. */
export interface SimClock {
  now(): number;
  set(t: number): void;
}

export interface TrafficStats {
  sessions: number;
  asks: number;
  events: number;
  /** Of them, the abusive session's (never judged helpful or not). */
  floodAsks: number;
  /** Answers with at least one relevant source among their citations (the user's view of quality), of the asks not the flood's. */
  helpful: number;
  /** Clicks by citation position. */
  clicksByPosition: number[];
  rephrases: number;
  /** Answers a rephrase said were wrong, by trace id: the demo's client should report each. */
  pushedBack: string[];
  regenerates: number;
  /** The week's last trace, to wait for before the night runs. */
  lastTraceId?: string;
}

export interface Population {
  /** Draws a query by popularity. */
  draw(r: Rng): JudgedQuery;
  /** How the query gets typed this time. */
  phrase(r: Rng, q: JudgedQuery): string;
  /** The query in other words, as a user re-asks it: never in a held-out question's words. */
  reword(r: Rng, q: JudgedQuery): string;
  /** The right source a correction names for this query. */
  rightSource(r: Rng, q: JudgedQuery): RightSource | undefined;
}

/** Rewordings drawn before a query is re-asked as written. */
const REWORD_ATTEMPTS = 10;

export function population(collection: Collection, r: Rng): Population {
  // A word left out can make a train question a test or validation one in the product's terms
  // (SciFact's 52 without "primary tumors" is test question 53): such a rewording is drawn again.
  const reword = (rr: Rng, q: JudgedQuery) => {
    for (let i = 0; i < REWORD_ATTEMPTS; i++) {
      const text = paraphrase(rr, q.text);
      if (!collection.heldOutKeys.has(queryKey(text))) return text;
    }
    return q.text;
  };
  const order = shuffled(r, collection.traffic);
  const weights = order.map((_, i) => 1 / (i + 1) ** TRAFFIC_MODEL.zipf);
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w));
  const variants = new Map(order.map((q) => [q.id, Array.from({ length: TRAFFIC_MODEL.variantsPerQuery }, () => reword(r, q))]));
  return {
    draw(rr) {
      const x = rr() * sum;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid]! < x) lo = mid + 1;
        else hi = mid;
      }
      return order[lo]!;
    },
    phrase: (rr, q) => (chance(rr, TRAFFIC_MODEL.variantShare) ? pick(rr, variants.get(q.id)!) : q.text),
    reword,
    rightSource(rr, q) {
      const docId = pick(rr, [...q.relevant]);
      const doc = collection.documents.get(docId);
      if (!doc) return undefined;
      const first = sentences(doc.text, formatOf(doc))[0] ?? doc.title;
      return first ? { docId, sentence: first.slice(0, 1_000) } : undefined;
    },
  };
}

/** A week's sessions against the demo, whichever way they are played. */
export interface SessionsOptions {
  demoUrl: string;
  clock: SimClock;
  population: Population;
  /** Every query text sent, by query key, so the reviewer can tell which question an item is about. */
  asked: (text: string, q: JudgedQuery) => void;
  sessions: number;
  weekStart: number;
  weekMs: number;
  rng: Rng;
}

export interface WeekOptions extends SessionsOptions {
  sink: EventSink;
  seed: number;
  cycle: number;
  userModel?: UserModel;
  flood?: boolean;
}

const emptyStats = (): TrafficStats => ({
  sessions: 0,
  asks: 0,
  floodAsks: 0,
  events: 0,
  helpful: 0,
  clicksByPosition: [0, 0, 0, 0, 0],
  rephrases: 0,
  pushedBack: [],
  regenerates: 0,
});

export async function simulateWeek(o: WeekOptions): Promise<TrafficStats> {
  const { rng: r, sink, clock } = o;
  const m = o.userModel ?? USER_MODEL;
  const stats = emptyStats();
  let n = 0;
  const id = (prefix: string) => `${prefix}-${o.seed}-${o.cycle}-${(n++).toString(36)}`;
  let outbox: FeedbackEventInput[] = [];
  const emit = (traceId: string, sessionId: string, at: number, e: SimEvent) => {
    stats.events++;
    outbox.push({
      eventId: id('e'),
      traceId,
      sessionId,
      signalType: e.signalType,
      ...(e.detail && { detail: e.detail }),
      clientTs: at + e.offsetMs,
      shownMs: e.offsetMs,
      widgetVersion: 'loop-eval',
    } as FeedbackEventInput);
  };
  const starts = Array.from({ length: o.sessions }, () => o.weekStart + Math.floor(r() * (o.weekMs - 3_600_000))).sort((a, b) => a - b);

  const address = () => `10.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}.${1 + Math.floor(r() * 254)}`;
  const sendSession = (ip: string) => {
    if (outbox.length) sink.send(outbox, ip);
    outbox = [];
  };

  for (const start of starts) {
    stats.sessions++;
    const sessionId = id('s');
    let q = o.population.draw(r);
    let text = o.population.phrase(r, q);
    let turn = 0;
    let t = start;
    let regenerateOf: string | undefined;
    let rephraseOf: { traceId: string; text: string; at: number } | undefined;
    for (let guard = 0; guard < 2 * m.maxTurns; guard++) {
      clock.set(t);
      o.asked(text, q);
      const res: Answer = await ask(o.demoUrl, { sessionId, query: text, turnIndex: turn, ...(regenerateOf && { regenerateOf }) });
      stats.asks++;
      stats.lastTraceId = res.traceId;
      if (rephraseOf) {
        // What the widget reports on the earlier answer once it sees the paraphrase.
        const similarity = querySimilarity(rephraseOf.text, text);
        const gapMs = t - rephraseOf.at;
        if (similarity >= REPHRASE_SIMILARITY && gapMs <= REPHRASE_WINDOW_MS)
          emit(rephraseOf.traceId, sessionId, rephraseOf.at, {
            signalType: 'rephrase_within_session',
            detail: { nextTraceId: res.traceId, similarity: Math.round(similarity * 1000) / 1000, gapMs },
            offsetMs: gapMs,
          });
        rephraseOf = undefined;
      }
      const reaction = react(r, res.citations, q.relevant, o.population.rightSource(r, q), turn, m);
      if (reaction.helpful) stats.helpful++;
      for (const p of reaction.clicked) stats.clicksByPosition[Math.min(p, 5) - 1]!++;
      for (const e of reaction.events) emit(res.traceId, sessionId, t, e);
      const last = Math.max(0, ...reaction.events.map((e) => e.offsetMs));
      regenerateOf = undefined;
      if (reaction.next === 'leave') break;
      if (reaction.next === 'regenerate') {
        const gapMs = last + between(r, 2_000, 10_000);
        emit(res.traceId, sessionId, t, { signalType: 'regenerate', detail: { gapMs }, offsetMs: gapMs });
        stats.regenerates++;
        regenerateOf = res.traceId;
        t += gapMs + 500;
        continue;
      }
      if (reaction.next === 'rephrase') {
        const reworded = o.population.reword(r, q);
        const pushBack = chance(r, m.pushBackOnRephrase);
        rephraseOf = { traceId: res.traceId, text, at: t };
        stats.rephrases++;
        if (pushBack) stats.pushedBack.push(res.traceId);
        text = pushBack ? `${pick(r, PUSHBACKS)} ${reworded}` : reworded;
        t += last + between(r, 10_000, 60_000);
      } else {
        q = o.population.draw(r);
        text = o.population.phrase(r, q);
        t += last + between(r, 30_000, 240_000);
      }
      turn++;
    }
    sendSession(address());
  }

  if (o.flood) {
    // One abusive session: asks and thumbs down everything, a vote every 0.4 s.
    const sessionId = id('flood');
    const start = o.weekStart + Math.floor(o.weekMs / 2);
    for (let i = 0; i < TRAFFIC_MODEL.floodAnswers; i++) {
      const q = o.population.draw(r);
      const at = start + i * 400;
      clock.set(at);
      o.asked(q.text, q);
      const res = await ask(o.demoUrl, { sessionId, query: q.text, turnIndex: i });
      stats.asks++;
      stats.floodAsks++;
      stats.lastTraceId = res.traceId;
      emit(res.traceId, sessionId, at, { signalType: 'thumbs_down', offsetMs: 300 });
    }
    sendSession(address());
  }
  await sink.flush();
  return stats;
}
