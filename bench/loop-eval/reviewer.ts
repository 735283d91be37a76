/**
 * The simulated reviewer: answers the review queue, highest expected value first as the queue
 * orders it, from the collection's **train** judgements, wrong on `errorRate` of the items, and
 * only as many items as the week's budget clears (the collector's own `itemsPerWeek`).
 */
import { queryKey } from '../../shared/terms.ts';
import type { JudgedQuery } from './collection.ts';
import { collectorFetch } from './http.ts';
import { chance, type Rng } from './random.ts';

interface QueueItem {
  id: string;
  query: string;
  chunk: { chunkId: string; sourceDocId: string };
}

interface Queue {
  items: QueueItem[];
  budget: { itemsPerWeek: number; pending: number; held: number };
  training: { confirmed: number };
}

export interface ReviewStats {
  answered: number;
  relevant: number;
  notRelevant: number;
  /** Items whose question the reviewer could not place (never expected: every asked text is known). */
  unknown: number;
  /** Verdicts the error rate flipped. */
  mistakes: number;
  pendingLeft: number;
  held: number;
}

export interface ReviewerOptions {
  endpoint: string;
  adminKey: string;
  /** Query key of every text users typed, to the question they meant. */
  questions: ReadonlyMap<string, JudgedQuery>;
  errorRate: number;
  rng: Rng;
}

async function admin<T>(o: ReviewerOptions, path: string, json?: unknown): Promise<T> {
  const res = await collectorFetch(`${o.endpoint}/v1/admin${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${o.adminKey}`, ...(json !== undefined && { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${res.text}`);
  return JSON.parse(res.text) as T;
}

/** Items fetched at a time: the queue is read a page at a time, as a reviewer's screen would. */
const PAGE = 50;
/** Verdicts sent at once: the console saves each answer as it is given, so several can be in flight. */
const SAVES_IN_FLIGHT = 4;

function verdictFor(o: ReviewerOptions, item: QueueItem, stats: ReviewStats): 'relevant' | 'not_relevant' | 'unclear' {
  const q = o.questions.get(queryKey(item.query));
  if (!q) {
    stats.unknown++;
    return 'unclear';
  }
  let relevant = q.relevant.has(item.chunk.sourceDocId);
  if (chance(o.rng, o.errorRate)) {
    relevant = !relevant;
    stats.mistakes++;
  }
  stats[relevant ? 'relevant' : 'notRelevant']++;
  return relevant ? 'relevant' : 'not_relevant';
}

export async function reviewWeek(o: ReviewerOptions): Promise<ReviewStats> {
  const first = await admin<Queue>(o, '/review?status=pending&limit=1');
  const budget = first.budget.itemsPerWeek;
  const stats: ReviewStats = { answered: 0, relevant: 0, notRelevant: 0, unknown: 0, mistakes: 0, pendingLeft: 0, held: first.budget.held };
  while (stats.answered < budget) {
    const page = await admin<Queue>(o, `/review?status=pending&limit=${Math.min(PAGE, budget - stats.answered)}`);
    if (page.items.length === 0) break;
    // Verdicts are drawn in queue order (the run stays reproducible), then saved a few at a time.
    const answers = page.items.map((item) => ({ item, verdict: verdictFor(o, item, stats) }));
    for (let i = 0; i < answers.length; i += SAVES_IN_FLIGHT) {
      await Promise.all(answers.slice(i, i + SAVES_IN_FLIGHT).map(({ item, verdict }) => admin(o, `/review/${item.id}`, { verdict })));
    }
    stats.answered += answers.length;
  }
  stats.pendingLeft = first.budget.pending - stats.answered;
  return stats;
}
