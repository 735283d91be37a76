/**
 * A review item's fields recomputed from all its rows in `review_item_traces`: counts, mean
 * weight, expected value, the direction of the evidence, the strongest trace's guess, the
 * strongest traces' evidence lines, and the latest trace's query as typed and chunk text. The
 * nightly job recomputes the items it touched; erasing a user recomputes the items their traces
 * were part of.
 */
import { expectedValue } from '../loop/mining.ts';
import { JOIN_CHUNK_TEXT } from './sql/chunk-text.ts';
import { jsonArrays } from './sql/json-insert.ts';
import { distinctEvidence, type StoredEvidence } from './stored-evidence.ts';
import { asGuessWhy } from './stored-guess-why.ts';

/** Evidence lines an item keeps: the strongest traces' (the counts say how many there were). */
export const ITEM_EVIDENCE_LINES = 8;

/** An item's rows, the latest mined first (trace id for ties): the one it shows its query as typed from. */
const LATEST_FIRST = 'order by x.mined_at desc, x.trace_id desc';

/** An item's rows by strength: weight, then trace id for ties. */
const strongest = (columns: string, limit: string) =>
  `select ${columns} from review_item_traces x where x.project_id = ?1 and x.item_id = agg.item_id order by x.weight desc, x.trace_id limit ${limit}`;

/**
 * SQL for the aggregates of the items `itemIdsSql` selects, with the project as ?1 and
 * ITEM_EVIDENCE_LINES bound to `linesParam`. An item without rows is left out.
 */
export const itemAggregatesSql = (itemIdsSql: string, linesParam: string) =>
  `with agg as (
     select item_id, count(*) as n, avg(weight) as w, min(rank) as best_rank,
       sum(case candidate when 'positive' then weight else -weight end) as direction
     from review_item_traces where project_id = ?1 and item_id in (${itemIdsSql}) group by item_id
   )
   select agg.item_id as itemId, agg.n, agg.w, agg.best_rank as rank, agg.direction, s.guess, s.guess_why as guessWhy, s.score,
     (select json_group_array(json(evidence)) from (${strongest('x.evidence', linesParam)})) as evidence,
     (select x.trace_id from review_item_traces x where x.project_id = ?1 and x.item_id = agg.item_id ${LATEST_FIRST} limit 1) as latest
   from agg cross join review_item_traces s on s.project_id = ?1 and s.item_id = agg.item_id and s.trace_id = (${strongest('x.trace_id', '1')})`;

/**
 * SQL setting the query of the items `itemIdsSql` selects, with the project as ?1, to the latest
 * stored trace's among their rows, as typed; with none stored (retention keeps rows past their
 * traces), to the question's key, which all its traces share. For erasure, in its transaction:
 * the item must not keep the typing of the user it erases.
 */
export const latestQuerySql = (itemIdsSql: string) =>
  `update review_items set query = coalesce(
     (select t.query from review_item_traces x cross join traces t on t.project_id = ?1 and t.trace_id = x.trace_id
      where x.project_id = ?1 and x.item_id = review_items.item_id ${LATEST_FIRST} limit 1),
     query_key)
   where project_id = ?1 and item_id in (${itemIdsSql})`;

interface Aggregate {
  itemId: string;
  n: number;
  w: number;
  rank: number;
  direction: number;
  guess: string;
  guessWhy: string;
  score: number;
  evidence: string;
  /** The trace mined last (the last slice's of the latest run): the item shows its query as typed and its chunk's text. */
  latest: string;
}

/**
 * `column` of the item's chunk (review item `r`) as its latest trace (`u.value ->> 'latest'`)
 * retrieved it, over its chunk row `c` and text `ct`: one row, the same for each column asked (null when none).
 */
const latestChunk = (column: string) =>
  `select ${column} from trace_chunks c ${JOIN_CHUNK_TEXT} where c.project_id = ?1 and c.trace_id = u.value ->> 'latest' and c.chunk_id = r.chunk_id
     order by c.stage, c.rank limit 1`;

/** Statements that write the aggregates `itemAggregatesSql` read into their items. */
export function writeItemAggregates(db: D1Database, projectId: string, now: number, rows: readonly unknown[]): D1PreparedStatement[] {
  const updates = (rows as Aggregate[]).map((r) => ({
    itemId: r.itemId,
    n: r.n,
    w: r.w,
    rank: r.rank,
    score: r.score,
    candidate: r.direction >= 0 ? 'positive' : 'negative',
    guess: r.guess,
    guessWhy: asGuessWhy(r.guessWhy),
    // As codes, lines kept from before read back as theirs.
    evidence: distinctEvidence((JSON.parse(r.evidence) as StoredEvidence[][]).flat()),
    ev: expectedValue(r.w, r.n),
    latest: r.latest,
  }));
  return jsonArrays(updates).map((part) =>
    db
      .prepare(
        // An upsert of rows that all exist: SQLite then walks the new values and finds each
        // item by its key, where an UPDATE … FROM json_each scans the project's items for each.
        // The chunk is shown as the latest trace retrieved it, its text with its document's version; an
        // answered item keeps the text its verdict was given on, whatever the document became since.
        `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, source_doc_version, chunk_text, rank, score, candidate,
           guess, guess_why, evidence, trace_count, weight, expected_value, status, mined_at, updated_at)
         select r.project_id, r.item_id, r.query_key,
           coalesce((select t.query from traces t where t.project_id = ?1 and t.trace_id = u.value ->> 'latest'), r.query),
           r.chunk_id, r.source_doc_id,
           case when r.status = 'answered' then r.source_doc_version
             else coalesce((${latestChunk('json_array(c.source_doc_version)')}), json_array(r.source_doc_version)) ->> '$[0]' end,
           case when r.status = 'answered' then r.chunk_text else coalesce((${latestChunk('ct.text')}), r.chunk_text) end,
           u.value ->> 'rank', u.value ->> 'score',
           u.value ->> 'candidate', u.value ->> 'guess', u.value -> 'guessWhy', u.value -> 'evidence', u.value ->> 'n', u.value ->> 'w', u.value ->> 'ev',
           r.status, r.mined_at, ?2
         from json_each(?3) u cross join review_items r on r.project_id = ?1 and r.item_id = u.value ->> 'itemId'
         where true
         on conflict (project_id, item_id) do update set query = excluded.query, source_doc_version = excluded.source_doc_version,
           chunk_text = excluded.chunk_text, trace_count = excluded.trace_count,
           weight = excluded.weight, rank = excluded.rank, score = excluded.score, candidate = excluded.candidate, guess = excluded.guess, guess_why = excluded.guess_why, evidence = excluded.evidence,
           expected_value = excluded.expected_value, updated_at = excluded.updated_at`,
      )
      .bind(projectId, now, part),
  );
}
