/**
 * A month of one project's traffic, written straight into a migrated collector database (the
 * SQLite file behind wrangler's local D1) with better-sqlite3: sessions of 1-4 turns over Zipf-
 * popular questions, 10 retrieved chunks per answer out of a corpus of documents with versions
 * (each chunk's text stored once), and the feedback widgets send: mostly implicit (clicks, dwell,
 * copies, rephrases), some explicit (votes, ratings, corrections, wrong-source flags), a few
 * mis-clicks, double submits and flooding sessions. Deterministic for a given seed.
 *
 * By default every row is received in the day before `now`, as if the month had been imported
 * the day before: the whole month falls in one night's window, the most one run can be asked to
 * do. With `receipt: 'live'` each row is received seconds after it was made, as in a project that
 * has run for a month: the same rows, spread over the month's nights.
 */

import Database from 'better-sqlite3';
import { random } from '../../scripts/seed/traffic.ts';
import type { FeedbackEvent } from '../../shared/schema/event.ts';
import { signalValue } from '../../shared/signal-value.ts';
import { SIGNALS, type SignalType } from '../../shared/signals.ts';
import { TOP_RANKS } from '../../shared/thresholds.ts';

export interface Volume {
  traces: number;
  /** Distinct chunks in the corpus. */
  chunks: number;
  documents: number;
  /** Distinct questions users ask (each in a few phrasings). */
  questions: number;
  users: number;
}

/** The issue's figure at scale 1: 1M traces over 100k chunks of 5k documents (and ~5M events). */
export const volumeAt = (scale: number): Volume => ({
  traces: Math.round(1_000_000 * scale),
  chunks: Math.max(100, Math.round(100_000 * scale)),
  documents: Math.max(5, Math.round(5_000 * scale)),
  questions: Math.max(50, Math.round(50_000 * scale)),
  users: Math.max(20, Math.round(150_000 * scale)),
});

/** When rows are received: all in the day before `now` (a month imported at once), or as they are made. */
export type Receipt = 'imported' | 'live';

export interface Generated {
  /** The moment the month ends. */
  now: number;
  traces: number;
  chunkRows: number;
  chunkTexts: number;
  events: number;
  sessions: number;
  /** Filling the tables, and rebuilding their indexes afterwards. */
  fillMs: number;
  indexMs: number;
}

const DAY = 86_400_000;
const DAYS = 30;
const CHUNKS_PER_TRACE = 10;
/** Chunks a question's answers draw most of theirs from; the rest are the retriever's noise. */
const BASE_CHUNKS = 12;
const FROM_BASE = 8;
const TABLES = ['traces', 'trace_chunks', 'chunk_texts', 'feedback_events'];

/** Draws 0..n-1 with probability proportional to 1 / (k + 1)^s. */
export function zipf(n: number, s: number, rnd: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let k = 0; k < n; k++) cdf[k] = sum += 1 / (k + 1) ** s;
  return () => {
    const u = rnd() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function shuffled(n: number, rnd: () => number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

const SYLLABLES = 'ka lo mi ne su ta ri po de fa gu hi jo le mu na pe qui ro sa ti vu we xo ya ze bra cle dri'.split(' ');

/**
 * UUIDv7s drawn from `rnd`, as the widget makes trace ids: ids of rows made in time order sort in
 * nearly the same order, as in production.
 */
export function uuidV7s(rnd: () => number): (ms: number) => string {
  const int = (n: number) => Math.floor(rnd() * n);
  const hex = (digits: number) => {
    let s = '';
    while (s.length < digits) s += int(0x10000).toString(16).padStart(4, '0');
    return s.slice(0, digits);
  };
  return (ms) => {
    const t = Math.floor(ms).toString(16).padStart(12, '0');
    return `${t.slice(0, 8)}-${t.slice(8)}-7${hex(3)}-${'89ab'[int(4)]}${hex(3)}-${hex(12)}`;
  };
}

export function generate(file: string, projectId: string, volume: Volume, now: number, receipt: Receipt = 'imported', seed = 1): Generated {
  const rnd = random(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const idAt = uuidV7s(rnd);

  // The corpus: documents of 20-odd chunks, some with a second or third version during the month.
  const vocabulary = Array.from({ length: 4_000 }, () => Array.from({ length: 2 + int(2) }, () => SYLLABLES[int(SYLLABLES.length)]).join(''));
  const word = () => vocabulary[int(vocabulary.length)]!;
  const sentence = (chars: number) => {
    let s = '';
    while (s.length < chars) s += `${s ? ' ' : ''}${word()}`;
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  };
  const start = now - DAYS * DAY;
  const span = DAYS * DAY - 2 * 3_600_000;
  const docOf = (chunk: number) => Math.floor((chunk * volume.documents) / volume.chunks);
  const docIds = Array.from({ length: volume.documents }, (_, d) => `kb/doc-${String(d).padStart(5, '0')}.md`);
  const chunkIds = Array.from({ length: volume.chunks }, (_, c) => `${docIds[docOf(c)]}#${c.toString(36)}`);
  const chunkTexts = Array.from({ length: volume.chunks }, () => sentence(290));
  /** Per document: null when it has no versions, else the times its second and third versions appeared. */
  const versions = Array.from({ length: volume.documents }, () => {
    const r = rnd();
    if (r < 0.2) return null;
    if (r < 0.65) return [];
    const a = start + rnd() * span;
    return r < 0.92 ? [a] : [a, a + rnd() * (now - a)];
  });
  const versionAt = (doc: number, t: number) => {
    const v = versions[doc];
    return v ? v.filter((x) => x <= t).length : -1;
  };
  /** Documents gone stale: their answers go wrong far more often. */
  const stale = new Uint8Array(volume.documents).map(() => (rnd() < 0.03 ? 1 : 0));
  const usedVersions = new Uint8Array(volume.chunks);

  // Questions, Zipf-popular, each with a few phrasings and the chunks its answers draw on.
  const popularChunk = (() => {
    const order = shuffled(volume.chunks, rnd);
    const draw = zipf(volume.chunks, 0.6, rnd);
    return () => order[draw()]!;
  })();
  const questionOrder = shuffled(volume.questions, rnd);
  const drawQuestion = (() => {
    const draw = zipf(volume.questions, 1, rnd);
    return () => questionOrder[draw()]!;
  })();
  const phrasings: string[][] = [];
  const base = new Int32Array(volume.questions * BASE_CHUNKS);
  for (let q = 0; q < volume.questions; q++) {
    const words = Array.from({ length: 3 + int(4) }, word);
    phrasings.push([`How do I ${words.join(' ')}?`, `${[...words].reverse().join(' ')} how`, `what ${words.slice(0, -1).join(' ')} ${word()} ${words.at(-1)}`]);
    const seen = new Set<number>();
    while (seen.size < BASE_CHUNKS) seen.add(popularChunk());
    base.set([...seen], q * BASE_CHUNKS);
  }
  const userOf = (() => {
    const draw = zipf(volume.users, 0.8, rnd);
    return () => (rnd() < 0.1 ? null : `u-${(Math.imul(draw() + 1, 2_654_435_761) >>> 0).toString(16).padStart(8, '0')}`);
  })();
  /** Sessions that thumbs-down everything, twice a second: one per 200k traces, at least one. */
  const floods = Math.max(1, Math.round(volume.traces / 200_000));

  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = FILE');
  // Secondary indexes are rebuilt after the fill: sorting once is far faster than inserting at random.
  const indexes = db
    .prepare(`select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${TABLES.map((t) => `'${t}'`).join(', ')})`)
    .all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`drop index ${name}`);

  const insertTrace = db.prepare(
    `insert into traces (project_id, trace_id, session_id, user_id_hash, turn_index, query, top_k, embedding_model, answer, model, intent, knowledge_base, created_at, received_at)
     values (?, ?, ?, ?, ?, ?, 10, 'bge-small-en-v1.5', ?, 'gpt-4o-mini', ?, 'help-centre', ?, ?)`,
  );
  const chunkValues = Array.from({ length: CHUNKS_PER_TRACE }, () => `(?, ?, 'retrieved', ?, ?, ?, ?, ?, ?)`).join(', ');
  const insertChunks = db.prepare(
    `insert into trace_chunks (project_id, trace_id, stage, rank, chunk_id, source_doc_id, source_doc_version, score, top_ranked) values ${chunkValues}`,
  );
  const insertEvent = db.prepare(
    `insert into feedback_events (project_id, event_id, trace_id, session_id, signal_type, signal_value, signal_group, superseded, detail, widget_version, client_ts, received_at)
     values (?, ?, ?, ?, ?, ?, ?, 0, ?, '0.1.0', ?, ?)`,
  );
  const insertText = db.prepare('insert into chunk_texts (project_id, chunk_id, source_doc_version, text) values (?, ?, ?, ?)');
  /** Imported: the month compressed into the day before `now`, in the same order. Live: a few seconds after `t`. */
  const receivedAt = (t: number) =>
    Math.min(now - 1_000, (receipt === 'live' ? t : Math.floor(now - DAY + ((t - start) / (DAYS * DAY)) * (DAY - 600_000))) + 1_000 + int(4_000));

  const out = { traces: 0, chunkRows: 0, chunkTexts: 0, events: 0, sessions: 0 };
  let traceId = '';
  let sessionId = '';
  let createdAt = 0;
  let traceReceived = 0;
  const event = (type: SignalType, offsetMs: number, detail: Record<string, unknown> = {}) => {
    const clientTs = createdAt + Math.floor(offsetMs);
    const value = signalValue({ signalType: type, detail } as FeedbackEvent);
    insertEvent.run(
      projectId,
      idAt(clientTs),
      traceId,
      sessionId,
      type,
      value,
      SIGNALS[type].group,
      JSON.stringify(detail),
      clientTs,
      Math.max(traceReceived, receivedAt(clientTs)) + int(3_000),
    );
    out.events++;
  };

  const chunks = new Int32Array(CHUNKS_PER_TRACE);
  /** The answer's chunks: most of its question's, in a shuffled order, and a couple at random. */
  const retrieve = (q: number) => {
    let n = 0;
    const skip = new Set<number>();
    while (skip.size < BASE_CHUNKS - FROM_BASE) skip.add(int(BASE_CHUNKS));
    for (let i = 0; i < BASE_CHUNKS; i++) if (!skip.has(i)) chunks[n++] = base[q * BASE_CHUNKS + i]!;
    while (n < CHUNKS_PER_TRACE) {
      const c = int(volume.chunks);
      if (!chunks.subarray(0, n).includes(c)) chunks[n++] = c;
    }
    for (let i = 0; i < n - 1; i++) if (rnd() < 0.3) [chunks[i], chunks[i + 1]] = [chunks[i + 1]!, chunks[i]!];
  };
  /** Rank 1 is clicked most: weight 1 / rank. */
  const clickedRank = zipf(CHUNKS_PER_TRACE, 1, rnd);

  const fillStart = performance.now();
  const sessions = Math.round(volume.traces / 2.5);
  const fillSessions = db.transaction((from: number, to: number) => {
    for (let s = from; s < to && out.traces < volume.traces; s++) {
      const flood = s % Math.floor(sessions / floods) === 7;
      const sessionStart = start + ((s + rnd()) / sessions) * span;
      sessionId = `s-${idAt(sessionStart)}`;
      const user = userOf();
      const turns = Math.min(volume.traces - out.traces, flood ? 100 : 1 + int(4));
      const traceIds = Array.from({ length: turns + 1 }, (_, i) => idAt(sessionStart + i * 1_000));
      let q = drawQuestion();
      let at = sessionStart;
      let rephrasing = false;
      for (let turn = 0; turn < turns; turn++) {
        traceId = traceIds[turn]!;
        createdAt = Math.floor(at);
        traceReceived = receivedAt(createdAt);
        retrieve(q);
        const topDoc = docOf(chunks[0]!);
        const bad = rnd() < (stale[topDoc] ? 0.6 : 0.22);
        const query = phrasings[q]![rephrasing ? 1 + int(2) : rnd() < 0.7 ? 0 : int(3)]!;
        insertTrace.run(
          projectId,
          traceId,
          sessionId,
          user,
          turn,
          query,
          `${chunkTexts[chunks[0]!]!.slice(0, 220)} ${chunkTexts[chunks[1]!]!.slice(0, 180)} [1][2]`,
          `topic-${q % 40}`,
          createdAt,
          traceReceived,
        );
        const values: unknown[] = [];
        for (let r = 0; r < CHUNKS_PER_TRACE; r++) {
          const c = chunks[r]!;
          const doc = docOf(c);
          const v = versionAt(doc, createdAt);
          usedVersions[c]! |= 1 << Math.max(0, v);
          values.push(
            projectId,
            traceId,
            r + 1,
            chunkIds[c],
            docIds[doc],
            v < 0 ? null : `v${v + 1}`,
            Math.round((0.92 - 0.04 * r + rnd() * 0.02) * 1000) / 1000,
            // As the collector stores it: retrieval is these traces' last stage.
            r < TOP_RANKS ? 1 : 0,
          );
        }
        insertChunks.run(...values);
        out.traces++;
        out.chunkRows += CHUNKS_PER_TRACE;

        const next = turn + 1 < turns;
        rephrasing = false;
        if (flood) {
          event('thumbs_down', 400);
          at += 500;
          continue;
        }
        feedback(bad, next);
        if (bad && next && rnd() < 0.45) {
          // Asks the same again in other words: the widget marks the first answer.
          const gap = 20_000 + int(40_000);
          event('rephrase_within_session', gap, { nextTraceId: traceIds[turn + 1], similarity: Math.round((0.55 + rnd() * 0.4) * 100) / 100, gapMs: gap });
          rephrasing = true;
          at += gap;
        } else {
          at += 30_000 + int(150_000);
          if (rnd() < 0.6) q = drawQuestion();
        }
      }
      out.sessions++;
    }
  });

  /** What a user does with one answer: mostly implicit signals, sometimes a vote or more. */
  function feedback(bad: boolean, next: boolean) {
    const chunk = (rank: number) => chunkIds[chunks[rank]!]!;
    event('answer_dwell', 4_000 + int(80_000), { ms: 2_000 + int(90_000) });
    if (rnd() < 0.24) event('web_vitals', 1_500, { name: 'INP', value: 40 + int(400), rating: 'good' });
    const clicks = bad ? [0, 1, 1, 2][int(4)]! : [0, 1, 1, 2, 2, 3][int(6)]!;
    for (let i = 0; i < clicks; i++) {
      const rank = clickedRank();
      const offset = 5_000 + i * 20_000 + int(10_000);
      event('citation_click', offset, { chunkId: chunk(rank) });
      if (rnd() < 0.75) {
        const ms = bad ? 1_000 + int(20_000) : 3_000 + int(60_000);
        event('citation_dwell', offset + ms, { chunkId: chunk(rank), ms, mode: rnd() < 0.6 ? 'away' : 'preview' });
      }
    }
    if (rnd() < 0.25) event('prompt_shown', 30_000, { promptId: 'helpful', trigger: 'dwell' });
    if (!bad) {
      if (rnd() < 0.35) event('copy_answer', 20_000 + int(30_000), { chars: 40 + int(600) });
      if (rnd() < 0.2) event('copy_source', 25_000 + int(30_000), { chunkId: chunk(clickedRank()), chars: 20 + int(300) });
      if (rnd() < 0.15) {
        const offset = 12_000 + int(20_000);
        event('thumbs_up', offset);
        if (rnd() < 0.03) event('thumbs_up', offset + 600); // a double submit
      }
      if (rnd() < 0.03) event('rating', 15_000, { stars: 4 + int(2) });
      if (rnd() < 0.1) event('prompt_answered', 32_000, { promptId: 'helpful', answer: 'yes' });
      if (rnd() < 0.04) {
        // A mis-click: thumbs-down, then the user copies the answer after all.
        event('thumbs_down', 3_000);
        event('copy_answer', 8_000, { chars: 120 });
      }
      return;
    }
    if (rnd() < 0.3) event('bounce', 4_000 + int(6_000), { ms: 4_000 + int(6_000) });
    if (rnd() < 0.15) event('regenerate', 8_000 + int(50_000), { gapMs: 8_000 + int(50_000) });
    if (rnd() < 0.3) {
      event('thumbs_down', 9_000 + int(10_000));
      if (rnd() < 0.5) {
        const reason = (['not_answered', 'incomplete', 'looks_wrong', 'wrong_source', 'other'] as const)[int(5)]!;
        event('attribution', 22_000, reason === 'other' ? { reason, text: sentence(30 + int(80)) } : { reason });
      }
    }
    if (rnd() < 0.05) event('rating', 16_000, { stars: 1 + int(2) });
    if (rnd() < 0.12) event('wrong_source', 14_000 + int(10_000), { chunkId: chunk(int(3)) });
    if (rnd() < 0.04) {
      const text = rnd() < 0.1 ? 'wrong' : `It should say ${sentence(60 + int(120))}`;
      event('correction', 40_000 + int(60_000), rnd() < 0.5 ? { text, source: docIds[docOf(chunks[int(3)]!)] } : { text });
    }
    if (rnd() < 0.3) event('prompt_answered', 32_000, { promptId: 'helpful', answer: 'no' });
    if (rnd() < 0.05) event('copy_answer', 20_000, { chars: 60 });
    if (!next && rnd() < 0.2) event('bounce', 60_000, { ms: 60_000 });
  }

  const step = 20_000;
  for (let s = 0; out.traces < volume.traces; s += step) fillSessions(s, s + step);
  db.transaction(() => {
    for (let c = 0; c < volume.chunks; c++) {
      for (let v = 0; v < 3; v++) {
        if (!(usedVersions[c]! & (1 << v))) continue;
        const unversioned = versions[docOf(c)] === null;
        insertText.run(projectId, chunkIds[c], unversioned ? '' : `v${v + 1}`, v === 0 ? chunkTexts[c] : `${chunkTexts[c]} (Revised in version ${v + 1}.)`);
        out.chunkTexts++;
      }
    }
  })();
  const fillMs = performance.now() - fillStart;

  const indexStart = performance.now();
  for (const { sql } of indexes) db.exec(sql);
  const indexMs = performance.now() - indexStart;
  db.pragma('journal_mode = WAL');
  db.close();
  return { now, ...out, fillMs, indexMs };
}
