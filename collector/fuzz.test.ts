import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { ItemResult } from '../shared/schema/batch-result.ts';
import { FeedbackEventSchema } from '../shared/schema/event.ts';
import { type Chunk, TraceSchema } from '../shared/schema/trace.ts';
import { signalValue } from '../shared/signal-value.ts';
import { SIGNAL_TYPES, SIGNALS } from '../shared/signals.ts';
import { JOIN_CHUNK_TEXT } from './storage/sql/chunk-text.ts';
import { bearer, call, event, newProject, ORIGIN, trace } from './test/fixtures.ts';

const injections = [
  "'; DROP TABLE feedback_events; --",
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection payload, meant as plain text
  '${7*7}',
  '\u0000\u0001',
  "Robert'); --",
  '{"$gt":""}',
  '../../etc/passwd',
  '\ud83d\ude00'.repeat(50),
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  'x'.repeat(70_000),
];

/** Strange values of every kind: unicode, injection-shaped, huge, deeply nested. */
const weird = fc.oneof(
  fc.constantFrom(...injections),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(-0)),
  fc.jsonValue({ maxDepth: 12 }),
  fc.nat({ max: 200 }).map((depth) => Array.from({ length: depth }).reduce<unknown>((inner) => ({ a: [inner] }), 'deep')),
);

/** A valid event with some fields replaced by weird values. */
const mutatedEvent = fc
  .record({
    base: fc.constantFrom(...SIGNAL_TYPES),
    patch: fc.dictionary(fc.constantFrom('eventId', 'traceId', 'sessionId', 'signalType', 'clientTs', 'widgetVersion', 'detail', 'extra'), weird, {
      maxKeys: 3,
    }),
    detailPatch: fc.dictionary(fc.constantFrom('stars', 'reason', 'text', 'chunkId', 'ms', 'mode', 'chars', 'similarity', 'name', 'value'), weird, {
      maxKeys: 2,
    }),
  })
  .map(({ base, patch, detailPatch }) => {
    const e = event({ traceId: 'fuzz-trace', sessionId: `fz-${Math.random()}`, signalType: base } as never) as Record<string, unknown>;
    return { ...e, detail: { ...(e.detail as object), ...detailPatch }, ...patch };
  });

const rawBody = fc.oneof(
  weird.map((x) => JSON.stringify(x) ?? 'undefined'),
  fc.string({ unit: 'grapheme', maxLength: 500 }),
  fc.array(mutatedEvent, { maxLength: 5 }).map((events) => JSON.stringify({ events })),
  fc.array(fc.constant(0), { minLength: 2000, maxLength: 2000 }).map((a) => '['.repeat(a.length) + ']'.repeat(a.length)),
);

type Sent = Map<string, unknown>;

/** An item as the collector received it: JSON has no -0 and no undefined. */
const asSent = (item: unknown): unknown => JSON.parse(JSON.stringify(item));

/**
 * Checks a response is the JSON error or result shape, and notes each item it says was
 * accepted, by id, as it was sent: what the database must then hold, and nothing else.
 */
async function noteAccepted(res: Response, sentItems: () => readonly unknown[], accepted: Sent) {
  expect(res.status).toBeLessThan(500);
  const json = (await res.json()) as { error?: unknown; results?: ItemResult[] };
  expect('error' in json || 'results' in json).toBe(true);
  for (const r of json.results ?? []) if (r.status === 'accepted') accepted.set(r.id, asSent(sentItems()[r.index]));
  return json;
}

const sameIds = (stored: readonly string[], accepted: Sent) => expect([...stored].sort()).toEqual([...accepted.keys()].sort());

/** Every stored event is one the collector accepted, stored as validated, and still valid when read back. */
async function expectStoredEvents(projectId: string, accepted: Sent) {
  const { results: rows } = await env.DB.prepare('select * from feedback_events where project_id = ?').bind(projectId).all<Record<string, any>>();
  sameIds(
    rows.map((r) => r.event_id),
    accepted,
  );
  for (const row of rows) {
    const stored = v.safeParse(FeedbackEventSchema, {
      eventId: row.event_id,
      traceId: row.trace_id,
      sessionId: row.session_id,
      signalType: row.signal_type,
      clientTs: row.client_ts,
      widgetVersion: row.widget_version ?? undefined,
      detail: JSON.parse(row.detail),
    });
    expect(stored.success, JSON.stringify(row)).toBe(true);
    const sent = v.parse(FeedbackEventSchema, accepted.get(row.event_id));
    expect(stored.output).toEqual(sent);
    expect(row.signal_value).toBe(signalValue(sent));
    expect(row.signal_group).toBe(SIGNALS[sent.signalType].group);
  }
  return rows.length;
}

/** Every stored trace, with its chunks, is one the collector accepted, stored as validated, and still valid when read back. */
async function expectStoredTraces(projectId: string, accepted: Sent) {
  // A chunk's text is stored once per chunk id and version: the first accepted one is what every trace reads back.
  const firstText = new Map<string, string>();
  const textKey = (c: Chunk) => `${c.chunkId}\u0000${c.sourceDocVersion ?? ''}`;
  for (const item of accepted.values()) {
    const t = v.parse(TraceSchema, item);
    for (const c of [...t.retrievedChunks, ...(t.rerankedChunks ?? [])]) if (!firstText.has(textKey(c))) firstText.set(textKey(c), c.text);
  }
  const { results: rows } = await env.DB.prepare('select * from traces where project_id = ?').bind(projectId).all<Record<string, any>>();
  sameIds(
    rows.map((r) => r.trace_id),
    accepted,
  );
  for (const row of rows) {
    const { results: chunks } = await env.DB.prepare(
      `select c.*, ct.text from trace_chunks c ${JOIN_CHUNK_TEXT} where c.project_id = ? and c.trace_id = ? order by c.rank`,
    )
      .bind(projectId, row.trace_id)
      .all<Record<string, any>>();
    const toChunk = (c: Record<string, any>) => ({
      chunkId: c.chunk_id,
      sourceDocId: c.source_doc_id,
      sourceDocVersion: c.source_doc_version ?? undefined,
      score: c.score,
      rank: c.rank,
      text: c.text,
    });
    const stored = v.safeParse(TraceSchema, {
      traceId: row.trace_id,
      query: row.query,
      rewrittenQuery: row.rewritten_query ?? undefined,
      retrieval: { topK: row.top_k ?? undefined, threshold: row.threshold ?? undefined, embeddingModel: row.embedding_model ?? undefined },
      retrievedChunks: chunks.filter((c) => c.stage === 'retrieved').map(toChunk),
      rerankedChunks: chunks.filter((c) => c.stage === 'reranked').map(toChunk),
      prompt: row.prompt ?? undefined,
      answer: row.answer,
      model: row.model,
      rerankerVersion: row.reranker_version ?? undefined,
      userIdHash: row.user_id_hash ?? undefined,
      sessionId: row.session_id ?? undefined,
      turnIndex: row.turn_index ?? undefined,
      intent: row.intent ?? undefined,
      knowledgeBase: row.knowledge_base ?? undefined,
      createdAt: row.created_at,
    });
    expect(stored.success, JSON.stringify(row)).toBe(true);
    const sent = v.parse(TraceSchema, accepted.get(row.trace_id));
    const byRank = (list: readonly Chunk[] = []) => [...list].sort((a, b) => a.rank - b.rank).map((c) => ({ ...c, text: firstText.get(textKey(c))! }));
    expect(stored.output).toEqual({ ...sent, retrievedChunks: byRank(sent.retrievedChunks), rerankedChunks: byRank(sent.rerankedChunks) });
  }
  return rows.length;
}

describe('fuzzing the write endpoints: never a 5xx, and exactly the accepted items stored', { timeout: 60_000 }, () => {
  it('POST /v1/events with strange bodies', async () => {
    const p = await newProject();
    const accepted: Sent = new Map();
    await fc.assert(
      fc.asyncProperty(rawBody, fc.constantFrom('application/json', 'text/plain'), async (body, type) => {
        const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN, 'content-type': type }, body });
        await noteAccepted(res, () => (JSON.parse(body) as { events: unknown[] }).events, accepted);
      }),
      { numRuns: 150 },
    );
    await expectStoredEvents(p.id, accepted);
  });

  it('POST /v1/events with mutated events: each accepted as valid or rejected with a field', async () => {
    const p = await newProject();
    const accepted: Sent = new Map();
    await fc.assert(
      fc.asyncProperty(fc.array(mutatedEvent, { minLength: 1, maxLength: 8 }), async (events) => {
        const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events } });
        const json = await noteAccepted(res, () => events, accepted);
        for (const r of json.results ?? []) if (r.status === 'rejected') expect(r.field).toMatch(/^events\[\d+\]/);
      }),
      { numRuns: 150 },
    );
    expect(await expectStoredEvents(p.id, accepted)).toBeGreaterThan(0);
  });

  it('POST /v1/traces with mutated traces', async () => {
    const p = await newProject();
    const accepted: Sent = new Map();
    const mutatedTrace = fc
      .dictionary(
        fc.constantFrom('traceId', 'query', 'answer', 'model', 'createdAt', 'retrievedChunks', 'rerankedChunks', 'retrieval', 'turnIndex', 'prompt'),
        weird,
        { maxKeys: 2 },
      )
      .map((patch) => ({ ...trace(), ...patch }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutatedTrace, fc.array(mutatedTrace, { maxLength: 3 }), weird), async (body) => {
        const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: body });
        await noteAccepted(res, () => (Array.isArray(body) ? body : [body]), accepted);
      }),
      { numRuns: 150 },
    );
    expect(await expectStoredTraces(p.id, accepted)).toBeGreaterThan(0);
  });
});
