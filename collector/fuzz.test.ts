import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FeedbackEventSchema } from '../shared/schema/event.ts';
import { TraceSchema } from '../shared/schema/trace.ts';
import { SIGNAL_TYPES, signalValue } from '../shared/signals.ts';
import { bearer, call, event, newProject, ORIGIN, trace } from './test/fixtures.ts';

const injections = ["'; DROP TABLE feedback_events; --", '<script>alert(1)</script>', '${7*7}', '\u0000\u0001', "Robert'); --", '{"$gt":""}', '../../etc/passwd', '\ud83d\ude00'.repeat(50), '\u202e\u0645\u0631\u062d\u0628\u0627', 'x'.repeat(70_000)];

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
    patch: fc.dictionary(fc.constantFrom('eventId', 'traceId', 'sessionId', 'signalType', 'clientTs', 'widgetVersion', 'detail', 'extra'), weird, { maxKeys: 3 }),
    detailPatch: fc.dictionary(fc.constantFrom('stars', 'reason', 'text', 'chunkId', 'ms', 'mode', 'chars', 'similarity', 'name', 'value'), weird, { maxKeys: 2 }),
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

async function storedEventsAreValid(projectId: string) {
  const { results } = await env.DB.prepare('select * from feedback_events where project_id = ?').bind(projectId).all<Record<string, any>>();
  for (const row of results) {
    const parsed = v.safeParse(FeedbackEventSchema, {
      eventId: row.event_id,
      traceId: row.trace_id,
      sessionId: row.session_id,
      signalType: row.signal_type,
      clientTs: row.client_ts,
      widgetVersion: row.widget_version ?? undefined,
      detail: JSON.parse(row.detail),
    });
    expect(parsed.success, JSON.stringify(row)).toBe(true);
    if (parsed.success) expect(row.signal_value).toBe(signalValue(parsed.output));
  }
  return results.length;
}

describe('fuzzing the write endpoints', { timeout: 60_000 }, () => {
  it('POST /v1/events: never a 5xx, always the JSON error or result shape, never an invalid row', async () => {
    const p = await newProject();
    await fc.assert(
      fc.asyncProperty(rawBody, fc.constantFrom('application/json', 'text/plain'), async (body, type) => {
        const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN, 'content-type': type }, body });
        expect(res.status).toBeLessThan(500);
        const json = (await res.json()) as Record<string, unknown>;
        expect('error' in json || 'results' in json).toBe(true);
      }),
      { numRuns: 150 },
    );
    await storedEventsAreValid(p.id);
  });

  it('POST /v1/events: mutated events are each accepted as valid or rejected with a field', async () => {
    const p = await newProject();
    await fc.assert(
      fc.asyncProperty(fc.array(mutatedEvent, { minLength: 1, maxLength: 8 }), async (events) => {
        const res = await call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events } });
        expect(res.status).toBeLessThan(500);
        if (res.status === 200 || res.status === 400) {
          const json = (await res.json()) as { results?: { status: string; field?: string }[] };
          for (const r of json.results ?? []) if (r.status === 'rejected') expect(r.field).toMatch(/^events\[\d+\]/);
        }
      }),
      { numRuns: 150 },
    );
    expect(await storedEventsAreValid(p.id)).toBeGreaterThan(0);
  });

  it('POST /v1/traces: never a 5xx, never an invalid row', async () => {
    const p = await newProject();
    const mutatedTrace = fc
      .dictionary(fc.constantFrom('traceId', 'query', 'answer', 'model', 'createdAt', 'retrievedChunks', 'rerankedChunks', 'retrieval', 'turnIndex', 'prompt'), weird, { maxKeys: 2 })
      .map((patch) => ({ ...trace(), ...patch }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutatedTrace, fc.array(mutatedTrace, { maxLength: 3 }), weird), async (body) => {
        const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: body });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
    const { results } = await env.DB.prepare('select * from traces where project_id = ?').bind(p.id).all<Record<string, any>>();
    for (const row of results) {
      const chunks = await env.DB.prepare('select * from trace_chunks where project_id = ? and trace_id = ?').bind(p.id, row.trace_id).all<Record<string, any>>();
      const toChunk = (c: Record<string, any>) => ({ chunkId: c.chunk_id, sourceDocId: c.source_doc_id, sourceDocVersion: c.source_doc_version ?? undefined, score: c.score, rank: c.rank, text: c.text });
      const parsed = v.safeParse(TraceSchema, {
        traceId: row.trace_id,
        query: row.query,
        answer: row.answer,
        model: row.model,
        createdAt: row.created_at,
        prompt: row.prompt ?? undefined,
        turnIndex: row.turn_index ?? undefined,
        retrievedChunks: chunks.results.filter((c) => c.stage === 'retrieved').map(toChunk),
        rerankedChunks: chunks.results.filter((c) => c.stage === 'reranked').map(toChunk),
      });
      expect(parsed.success, JSON.stringify(row)).toBe(true);
    }
    expect(results.length).toBeGreaterThan(0);
  });
});
