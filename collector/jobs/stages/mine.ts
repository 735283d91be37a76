import { sha256Hex } from '../../../shared/hex.ts';
import { queryKey } from '../../../shared/terms.ts';
import { type Candidate, expectedValue, type MinedChunk, type MiningTrace, mineTrace } from '../../loop/mining.ts';
import { LOW_CONFIDENCE } from '../../loop/noise.ts';
import { JOIN_CHUNK_TEXT } from '../../storage/sql/chunk-text.ts';
import { nextCursor, type SliceResult, type Stage, touchedSlice } from './stage.ts';

/** Evidence lines an item keeps: the strongest traces' (the counts say how many there were). */
export const ITEM_EVIDENCE_LINES = 8;

const json = (x: unknown) => JSON.stringify(x);

interface ScoredTrace {
  trace_id: string;
  query: string;
  weighted_score: number;
}

interface ChunkRow extends MinedChunk {
  traceId: string;
  stage: string;
}

interface TrustedEvent {
  trace_id: string;
  signal_type: string;
  detail: string;
  confidence: number;
}

/** A stable id for the question "does chunk C help answer query Q?". */
export const itemIdOf = async (key: string, chunkId: string) => (await sha256Hex(`${key}\u0000${chunkId}`)).slice(0, 32);

/**
 * Mines the run's touched traces that are clearly bad or clearly good into review items, from
 * trusted signals only. Each trace's contribution is stored per item, and items are recomputed
 * from those rows, so mining a trace again changes nothing.
 */
export const mine: Stage = {
  name: 'mine',
  async slice(ctx, cursor): Promise<SliceResult> {
    const { db, projectId, settings, now } = ctx;
    const ids = await touchedSlice(ctx, cursor);
    if (ids.length === 0) return { cursor: null, counts: {} };
    const { results: scored } = await db
      .prepare(
        `select s.trace_id, t.query, s.weighted_score from trace_stats s join traces t on t.project_id = s.project_id and t.trace_id = s.trace_id
         where s.project_id = ? and s.trace_id in (select value from json_each(?)) and s.trusted_signals > 0 and (s.weighted_score <= ? or s.weighted_score >= ?)`,
      )
      .bind(projectId, json(ids), settings.badTraceScore, settings.goodTraceScore)
      .all<ScoredTrace>();
    if (scored.length === 0) return { cursor: nextCursor(ctx, ids), counts: { traces: ids.length } };
    const scoredIds = json(scored.map((t) => t.trace_id));
    const [chunkRows, eventRows] = await db.batch([
      // What the model saw: the reranked chunks when a reranker ran, else the retrieved ones
      // ('reranked' sorts after 'retrieved', so max(stage) is the last stage the trace has).
      db
        .prepare(
          `select c.trace_id as traceId, c.stage, c.rank, c.score, c.chunk_id as chunkId, c.source_doc_id as sourceDocId, c.source_doc_version as sourceDocVersion, ct.text
           from trace_chunks c ${JOIN_CHUNK_TEXT} where c.project_id = ?1 and c.trace_id in (select value from json_each(?2))
             and c.stage = (select max(stage) from trace_chunks x where x.project_id = ?1 and x.trace_id = c.trace_id)
           order by c.trace_id, c.rank`,
        )
        .bind(projectId, scoredIds),
      db
        .prepare(
          `select a.attributed_trace_id as trace_id, e.signal_type, e.detail, a.confidence from event_assessments a
           join feedback_events e on e.project_id = a.project_id and e.event_id = a.event_id
           where a.project_id = ? and a.attributed_trace_id in (select value from json_each(?)) and e.superseded = 0 and a.confidence >= ?`,
        )
        .bind(projectId, scoredIds, LOW_CONFIDENCE),
    ]);
    const chunks = groupBy(chunkRows!.results as ChunkRow[], (c) => c.traceId);
    const events = groupBy(eventRows!.results as TrustedEvent[], (e) => e.trace_id);
    const candidates: (Candidate & { key: string })[] = [];
    for (const t of scored) {
      const trace = miningTrace(t, chunks.get(t.trace_id) ?? [], events.get(t.trace_id) ?? []);
      for (const c of mineTrace(trace, settings)) candidates.push({ ...c, key: queryKey(t.query) });
    }
    const rows = await Promise.all(
      candidates.map(async (c) => ({
        itemId: await itemIdOf(c.key, c.chunk.chunkId),
        key: c.key,
        query: c.query,
        traceId: c.traceId,
        candidate: c.label,
        weight: c.weight,
        evidence: c.evidence,
        guess: c.guess,
        guessWhy: c.guessWhy,
        rank: c.chunk.rank,
        score: c.chunk.score,
        chunk: c.chunk,
      })),
    );
    if (rows.length) await saveCandidates(db, projectId, now, rows);
    return { cursor: nextCursor(ctx, ids), counts: { traces: ids.length, judged: scored.length, candidates: rows.length } };
  },
};

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

const ENGAGEMENT: Record<string, MiningTrace['engaged'][number]['kind']> = { citation_click: 'click', citation_dwell: 'dwell', copy_source: 'copy' };

function miningTrace(t: ScoredTrace, chunks: readonly ChunkRow[], events: readonly TrustedEvent[]): MiningTrace {
  const trace: MiningTrace = {
    traceId: t.trace_id,
    query: t.query,
    score: t.weighted_score,
    chunks: [...chunks],
    flagged: [],
    engaged: [],
    corrections: [],
    reasons: [],
  };
  for (const e of events) {
    const detail = JSON.parse(e.detail) as Record<string, unknown>;
    const chunkId = typeof detail.chunkId === 'string' ? detail.chunkId : undefined;
    if (e.signal_type === 'wrong_source' && chunkId) trace.flagged.push({ chunkId, confidence: e.confidence });
    else if (ENGAGEMENT[e.signal_type] && chunkId) trace.engaged.push({ chunkId, kind: ENGAGEMENT[e.signal_type]!, confidence: e.confidence });
    else if (e.signal_type === 'correction')
      trace.corrections.push({ text: String(detail.text), ...(typeof detail.source === 'string' && { source: detail.source }), confidence: e.confidence });
    else if (e.signal_type === 'attribution' && typeof detail.reason === 'string') trace.reasons.push(detail.reason);
  }
  return trace;
}

interface CandidateRow {
  itemId: string;
  key: string;
  query: string;
  traceId: string;
  candidate: 'negative' | 'positive';
  weight: number;
  evidence: string[];
  guess: string;
  guessWhy: string;
  rank: number;
  score: number;
  chunk: MinedChunk;
}

/**
 * Stores each trace's contribution, then recomputes the items it touched from all their rows:
 * counts, mean weight, expected value, the direction of the evidence, the strongest trace's guess.
 * New items start held; the queue stage decides what a reviewer sees.
 */
async function saveCandidates(db: D1Database, projectId: string, now: number, rows: readonly CandidateRow[]): Promise<void> {
  const items = [...new Set(rows.map((r) => r.itemId))];
  await db.batch([
    db
      .prepare(
        `insert into review_item_traces (project_id, item_id, trace_id, candidate, weight, evidence, rank, score, guess, guess_why, mined_at)
         select ?1, value ->> 'itemId', value ->> 'traceId', value ->> 'candidate', value ->> 'weight', value -> 'evidence', value ->> 'rank', value ->> 'score',
           value ->> 'guess', value ->> 'guessWhy', ?2
         from json_each(?3) where true
         on conflict (project_id, item_id, trace_id) do update set candidate = excluded.candidate, weight = excluded.weight, evidence = excluded.evidence,
           rank = excluded.rank, score = excluded.score, guess = excluded.guess, guess_why = excluded.guess_why`,
      )
      .bind(projectId, now, json(rows.map(({ chunk, key, query, ...r }) => r))),
    // The item's own fields from the latest candidate: query as typed, chunk and its text.
    db
      .prepare(
        `insert into review_items (project_id, item_id, query_key, query, chunk_id, source_doc_id, source_doc_version, chunk_text, rank, score, candidate,
           guess, guess_why, evidence, trace_count, weight, expected_value, status, mined_at, updated_at)
         select ?1, value ->> 'itemId', value ->> 'key', value ->> 'query', value -> 'chunk' ->> 'chunkId', value -> 'chunk' ->> 'sourceDocId',
           value -> 'chunk' ->> 'sourceDocVersion', value -> 'chunk' ->> 'text', value ->> 'rank', value ->> 'score', value ->> 'candidate',
           value ->> 'guess', value ->> 'guessWhy', '[]', 0, 0, 0, 'held', ?2, ?2
         from json_each(?3) where true
         on conflict (project_id, item_id) do update set query = excluded.query, chunk_text = excluded.chunk_text`,
      )
      .bind(projectId, now, json(rows)),
  ]);
  const { results } = await db
    .prepare(
      `with agg as (
         select item_id, count(*) as n, avg(weight) as w, min(rank) as best_rank,
           sum(case candidate when 'positive' then weight else -weight end) as direction
         from review_item_traces where project_id = ?1 and item_id in (select value from json_each(?2)) group by item_id
       ), ranked as (
         select item_id, guess, guess_why, score, evidence, row_number() over (partition by item_id order by weight desc, trace_id) as r
         from review_item_traces where project_id = ?1 and item_id in (select value from json_each(?2))
       )
       select agg.item_id as itemId, agg.n, agg.w, agg.best_rank as rank, agg.direction, s.guess, s.guess_why as guessWhy, s.score,
         (select json_group_array(json(evidence)) from ranked x where x.item_id = agg.item_id and x.r <= ?3) as evidence
       from agg join ranked s on s.item_id = agg.item_id and s.r = 1`,
    )
    .bind(projectId, json(items), ITEM_EVIDENCE_LINES)
    .all<{ itemId: string; n: number; w: number; rank: number; direction: number; guess: string; guessWhy: string; score: number; evidence: string }>();
  const updates = results.map((r) => ({
    itemId: r.itemId,
    n: r.n,
    w: r.w,
    rank: r.rank,
    score: r.score,
    candidate: r.direction >= 0 ? 'positive' : 'negative',
    guess: r.guess,
    guessWhy: r.guessWhy,
    evidence: [...new Set((JSON.parse(r.evidence) as string[][]).flat())],
    ev: expectedValue(r.w, r.n),
  }));
  await db
    .prepare(
      `update review_items set trace_count = u.value ->> 'n', weight = u.value ->> 'w', rank = u.value ->> 'rank', score = u.value ->> 'score',
         candidate = u.value ->> 'candidate', guess = u.value ->> 'guess', guess_why = u.value ->> 'guessWhy', evidence = u.value -> 'evidence',
         expected_value = u.value ->> 'ev', updated_at = ?2
       from json_each(?3) u
       where review_items.project_id = ?1 and review_items.item_id = u.value ->> 'itemId'`,
    )
    .bind(projectId, now, json(updates))
    .run();
}
