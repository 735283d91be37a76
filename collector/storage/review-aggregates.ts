/**
 * A review item's aggregates, kept in step with what each trace contributed to it: a trace's
 * contribution is added when it is mined and subtracted when it is mined again or erased, so an
 * item never has to be recomputed from all its traces. Sums are kept in millionths of a weight,
 * in integers, so that subtracting what was added gives back exactly what was there.
 */
import type { Guess } from '../../shared/admin-api/review.ts';
import { expectedValue } from '../loop/mining.ts';
import { jsonArrays } from './sql/json-insert.ts';

/** Evidence lines an item keeps: the strongest traces' (the counts say how many there were). */
export const ITEM_EVIDENCE_LINES = 8;
/** Traces an item lists, the strongest first: what the review queue and the item's traces show. */
export const STRONGEST_KEPT = 20;

/** What one trace contributed to one item. */
export interface Contribution {
  itemId: string;
  candidate: 'negative' | 'positive';
  weight: number;
  evidence: string[];
  rank: number;
  score: number;
  guess: Guess;
  guessWhy: string;
}

/** A trace among an item's strongest, with what it contributed. */
export type ListedTrace = Omit<Contribution, 'itemId'> & { traceId: string };

type Strength = Pick<ListedTrace, 'weight' | 'traceId'>;

export interface ItemState {
  itemId: string;
  status: string;
  traceCount: number;
  /** Sum of its traces' weights, in millionths. */
  weightTotal: number;
  /** Sum of its traces' weights, positive ones added and negative ones subtracted, in millionths. */
  direction: number;
  /** How many of its traces saw the chunk at each rank. */
  ranks: Record<string, number>;
  /** Every trace stronger than `cut`, strongest first (weight, then trace id), at most STRONGEST_KEPT. */
  strongest: ListedTrace[];
  /** Where the list stops: every trace it leaves out is this strong or weaker; null when it lists them all. */
  cut: Strength | null;
  /** What the strongest trace said, kept should every listed trace go. */
  score: number;
  guess: Guess;
  guessWhy: string;
  evidence: string[];
}

const MILLIONTHS = 1_000_000;
const millionths = (weight: number) => Math.round(weight * MILLIONTHS);
const signed = (c: Pick<Contribution, 'candidate' | 'weight'>) => (c.candidate === 'positive' ? 1 : -1) * millionths(c.weight);
const stronger = (a: Strength, b: Strength) => a.weight > b.weight || (a.weight === b.weight && a.traceId < b.traceId);

/** An item no trace has contributed to yet. */
export const emptyItem = (itemId: string): ItemState => ({
  itemId,
  status: 'held',
  traceCount: 0,
  weightTotal: 0,
  direction: 0,
  ranks: {},
  strongest: [],
  cut: null,
  score: 0,
  guess: 'unclear',
  guessWhy: '',
  evidence: [],
});

/** Takes a trace's contribution out of its item. */
export function subtractTrace(item: ItemState, traceId: string, c: Contribution): void {
  item.traceCount -= 1;
  item.weightTotal -= millionths(c.weight);
  item.direction -= signed(c);
  const left = (item.ranks[c.rank] ?? 0) - 1;
  if (left > 0) item.ranks[c.rank] = left;
  else delete item.ranks[c.rank];
  item.strongest = item.strongest.filter((t) => t.traceId !== traceId);
  if (item.strongest.length === item.traceCount) item.cut = null;
}

/**
 * Adds a trace's contribution to its item. A trace weaker than the cut stays out of the list
 * (a stronger one left out earlier may exist), so the list is always exactly the strongest
 * traces there are, never a guess: it only grows shorter when listed traces go.
 */
export function addTrace(item: ItemState, traceId: string, { itemId, ...c }: Contribution): void {
  item.traceCount += 1;
  item.weightTotal += millionths(c.weight);
  item.direction += signed(c);
  item.ranks[c.rank] = (item.ranks[c.rank] ?? 0) + 1;
  const listed: ListedTrace = { traceId, ...c };
  if (item.cut && !stronger(listed, item.cut)) return;
  const at = item.strongest.findIndex((t) => stronger(listed, t));
  item.strongest.splice(at < 0 ? item.strongest.length : at, 0, listed);
  if (item.strongest.length > STRONGEST_KEPT) {
    const dropped = item.strongest.pop()!;
    item.cut = { weight: dropped.weight, traceId: dropped.traceId };
  }
}

/** The columns the queue and the console read, from the item's sums and its strongest traces. */
export function itemColumns(item: ItemState) {
  const weight = item.traceCount > 0 ? item.weightTotal / MILLIONTHS / item.traceCount : 0;
  const ranks = Object.keys(item.ranks).map(Number);
  const top = item.strongest[0];
  return {
    itemId: item.itemId,
    n: item.traceCount,
    w: weight,
    rank: ranks.length ? Math.min(...ranks) : (top?.rank ?? 0),
    score: top?.score ?? item.score,
    candidate: item.direction >= 0 ? 'positive' : 'negative',
    guess: top?.guess ?? item.guess,
    guessWhy: top?.guessWhy ?? item.guessWhy,
    evidence: top ? [...new Set(item.strongest.slice(0, ITEM_EVIDENCE_LINES).flatMap((t) => t.evidence))] : item.evidence,
    ev: expectedValue(weight, item.traceCount),
    weightTotal: item.weightTotal,
    direction: item.direction,
    ranks: item.ranks,
    strongest: item.strongest,
    cut: item.cut,
  };
}

interface RawState {
  itemId: string;
  status: string;
  traceCount: number;
  weightTotal: number;
  direction: number;
  ranks: string;
  strongest: string;
  cut: string | null;
  score: number;
  guess: Guess;
  guessWhy: string;
  evidence: string;
}

/** The items' current state, by id (items that do not exist yet are left out). */
export async function readItems(db: D1Database, projectId: string, itemIds: readonly string[]): Promise<Map<string, ItemState>> {
  const out = new Map<string, ItemState>();
  if (itemIds.length === 0) return out;
  const results = await db.batch(
    jsonArrays(itemIds).map((part) =>
      db
        .prepare(
          `select item_id as itemId, status, trace_count as traceCount, weight_total as weightTotal, direction, ranks, strongest, strongest_cut as cut,
             score, guess, guess_why as guessWhy, evidence
           from review_items where project_id = ?1 and item_id in (select value from json_each(?2))`,
        )
        .bind(projectId, part),
    ),
  );
  for (const r of results.flatMap((x) => x.results as RawState[])) {
    out.set(r.itemId, {
      ...r,
      ranks: JSON.parse(r.ranks) as Record<string, number>,
      strongest: JSON.parse(r.strongest) as ListedTrace[],
      cut: r.cut === null ? null : (JSON.parse(r.cut) as Strength),
      evidence: JSON.parse(r.evidence) as string[],
    });
  }
  return out;
}

/**
 * Statements that write the items' aggregates (the items exist), and that delete the items left
 * without traces, unless `keepAnswered` and a reviewer answered one: the answer stays.
 */
export function writeItems(
  db: D1Database,
  projectId: string,
  now: number,
  items: readonly ItemState[],
  keepAnswered: boolean,
): { update: D1PreparedStatement[]; remove: D1PreparedStatement[] } {
  const kept = (i: ItemState) => i.traceCount > 0 || (keepAnswered && i.status === 'answered');
  const gone = items.filter((i) => !kept(i)).map((i) => i.itemId);
  const update = [
    ...jsonArrays(items.filter(kept).map(itemColumns)).map((part) =>
      db
        .prepare(
          // An upsert of rows that all exist: SQLite then walks the new values and finds each
          // item by its key, where an UPDATE … FROM json_each scans the project's items for each.
          `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, chunk_text, rank, score, candidate, guess, guess_why,
             evidence, trace_count, weight, expected_value, weight_total, direction, ranks, strongest, strongest_cut, status, mined_at, updated_at)
           select r.project_id, r.item_id, r.query_key, r.query, r.chunk_id, r.source_doc_id, r.chunk_text, u.value ->> 'rank', u.value ->> 'score',
             u.value ->> 'candidate', u.value ->> 'guess', u.value ->> 'guessWhy', u.value -> 'evidence', u.value ->> 'n', u.value ->> 'w', u.value ->> 'ev',
             u.value ->> 'weightTotal', u.value ->> 'direction', u.value -> 'ranks', u.value -> 'strongest', u.value -> 'cut', r.status, r.mined_at, ?2
           from json_each(?3) u cross join review_items r on r.project_id = ?1 and r.item_id = u.value ->> 'itemId'
           where true
           on conflict (project_id, item_id) do update set trace_count = excluded.trace_count, weight = excluded.weight, rank = excluded.rank,
             score = excluded.score, candidate = excluded.candidate, guess = excluded.guess, guess_why = excluded.guess_why, evidence = excluded.evidence,
             expected_value = excluded.expected_value, weight_total = excluded.weight_total, direction = excluded.direction, ranks = excluded.ranks,
             strongest = excluded.strongest, strongest_cut = nullif(excluded.strongest_cut, 'null'), updated_at = excluded.updated_at`,
        )
        .bind(projectId, now, part),
    ),
  ];
  const remove = jsonArrays(gone).map((part) =>
    db.prepare('delete from review_items where project_id = ?1 and item_id in (select value from json_each(?2))').bind(projectId, part),
  );
  return { update, remove };
}

/** SQL for the stored contributions of the traces `traceIdsSql` selects (the project as ?1): one row per trace, its items in a JSON array. */
export const contributionsSql = (traceIdsSql: string) =>
  `select trace_id as traceId, candidates from trace_candidates where project_id = ?1 and trace_id in (${traceIdsSql})`;

/** The rows `contributionsSql` read, by trace. */
export const contributionsOf = (rows: readonly unknown[]): Map<string, Contribution[]> =>
  new Map((rows as { traceId: string; candidates: string }[]).map((r) => [r.traceId, JSON.parse(r.candidates) as Contribution[]]));

/** Each item the contributions touch, as it is now (or empty), with the old contributions taken out and the new ones added. */
export async function applyContributions(
  db: D1Database,
  projectId: string,
  old: ReadonlyMap<string, readonly Contribution[]>,
  fresh: ReadonlyMap<string, readonly Contribution[]>,
): Promise<ItemState[]> {
  const ids = new Set<string>();
  for (const list of [...old.values(), ...fresh.values()]) for (const c of list) ids.add(c.itemId);
  const items = await readItems(db, projectId, [...ids]);
  const item = (id: string) => {
    let s = items.get(id);
    if (!s) items.set(id, (s = emptyItem(id)));
    return s;
  };
  for (const [traceId, list] of old) for (const c of list) subtractTrace(item(c.itemId), traceId, c);
  for (const [traceId, list] of fresh) for (const c of list) addTrace(item(c.itemId), traceId, c);
  return [...items.values()];
}
