import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { SIGNALS } from '../../shared/signals.ts';
import { CONTRADICTION_WINDOW_MS } from '../../shared/thresholds.ts';
import { bearer, call, event, newProject, planOf, trace } from '../test/fixtures.ts';
import { pushbackEventId, pushbackEvents } from './pushbacks.ts';

type Project = Awaited<ReturnType<typeof newProject>>;
interface StoredEvent {
  eventId: string;
  signalType: string;
  signalValue: number;
  sessionId: string;
  clientTs: number;
  detail: unknown;
}

const t0 = Date.UTC(2026, 11, 3, 12);
const turn = (traceId: string, turnIndex: number | undefined, query: string, at: number, sessionId = 's1'): TraceInput =>
  trace({ traceId, sessionId, turnIndex, query, createdAt: t0 + at });

async function send(p: Project, ...traces: TraceInput[]) {
  const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: traces });
  expect(res.status).toBe(200);
}

async function eventsOn(p: Project, traceId: string): Promise<StoredEvent[]> {
  const res = await call(`/v1/traces/${traceId}`, { headers: bearer(p.keys.admin) });
  if (res.status === 404) return [];
  return ((await res.json()) as { events: StoredEvent[] }).events;
}

describe('pushbacks: a follow-up saying the answer before it was wrong', () => {
  it('is recorded on that answer when the follow-up is stored, once however often it is sent', async () => {
    const p = await newProject();
    await send(p, turn('a', 0, 'How long do refunds take?', 0));
    const followUp = turn('b', 1, "That's wrong, it is 30 days", 40_000);
    await send(p, followUp);
    await send(p, followUp, turn('c', 2, 'What about opened items?', 60_000));
    const events = await eventsOn(p, 'a');
    expect(events).toEqual([
      expect.objectContaining({
        eventId: await pushbackEventId(followUp),
        signalType: 'contradicted_by_follow_up',
        signalValue: SIGNALS.contradicted_by_follow_up.value,
        sessionId: 's1',
        clientTs: t0 + 40_000,
        detail: { nextTraceId: 'b', gapMs: 40_000 },
      }),
    ]);
    // A question that asks rather than objects says nothing about the answer before it.
    expect(await eventsOn(p, 'b')).toEqual([]);
    // The id kept on the follow-up is the collector's bookkeeping, not part of the trace it shows.
    const shown = (await (await call('/v1/traces/b', { headers: bearer(p.keys.admin) })).json()) as { trace: Record<string, unknown> };
    expect(shown.trace).toMatchObject({ traceId: 'b', query: "That's wrong, it is 30 days" });
    expect(shown.trace).not.toHaveProperty('pushbackEventId');
  });

  it('is recorded when the answer arrives after its follow-up, as traces from two instances of a backend do', async () => {
    const p = await newProject();
    await send(p, turn('b', 1, 'Are you sure?', 40_000));
    expect(await eventsOn(p, 'a')).toEqual([]);
    await send(p, turn('a', 0, 'How long do refunds take?', 0));
    expect(await eventsOn(p, 'a')).toMatchObject([{ signalType: 'contradicted_by_follow_up', detail: { nextTraceId: 'b', gapMs: 40_000 } }]);
  });

  it('with turn indexes, waits for the turn just before, takes its latest answer, and counts a regenerated turn once', async () => {
    const p = await newProject();
    await send(p, turn('a', 0, 'How long do refunds take?', 0));
    // Turn 2 pushes back before turn 1 is stored: turn 0's answer is not the one it objects to.
    await send(p, turn('c', 2, 'No, that is not right', 50_000));
    expect(await eventsOn(p, 'a')).toEqual([]);
    // Turn 1 pushes back on turn 0 and is regenerated (asked again in the same words).
    await send(p, turn('b', 1, 'Are you sure? And for opened items?', 20_000), turn('b2', 1, 'Are you sure? And for opened items?', 30_000));
    expect(await eventsOn(p, 'a')).toMatchObject([{ signalType: 'contradicted_by_follow_up', detail: { nextTraceId: expect.stringMatching(/^b2?$/) } }]);
    expect(await eventsOn(p, 'b')).toEqual([]);
    expect(await eventsOn(p, 'b2')).toMatchObject([{ detail: { nextTraceId: 'c', gapMs: 20_000 } }]);
  });

  it('keeps sessions apart, orders turns by time when they have no index, and lets an old answer be', async () => {
    const p = await newProject();
    await send(
      p,
      turn('a', undefined, 'Refund window?', 0, 's1'),
      turn('x', undefined, 'Shipping time?', 5_000, 's2'),
      turn('b', undefined, 'Are you sure?', 10_000, 's1'),
      // Asked after the window: the conversation moved on.
      turn('y', undefined, 'Are you sure?', 5_000 + CONTRADICTION_WINDOW_MS + 1, 's2'),
    );
    expect(await eventsOn(p, 'a')).toMatchObject([{ sessionId: 's1', detail: { nextTraceId: 'b', gapMs: 10_000 } }]);
    expect(await eventsOn(p, 'x')).toEqual([]);
    // At the window's edge, still the same conversation.
    await send(p, turn('e', undefined, 'Refund window?', 0, 's3'), turn('f', undefined, 'Are you sure?', CONTRADICTION_WINDOW_MS, 's3'));
    expect(await eventsOn(p, 'e')).toMatchObject([{ detail: { nextTraceId: 'f', gapMs: CONTRADICTION_WINDOW_MS } }]);
    // Traces without a session have no answer before them.
    await send(
      p,
      trace({ traceId: 'before', sessionId: undefined, query: 'Refund window?', createdAt: t0 + 15_000 }),
      trace({ traceId: 'lone', sessionId: undefined, query: "That's wrong", createdAt: t0 + 20_000 }),
    );
    expect(await eventsOn(p, 'before')).toEqual([]);
  });

  it("takes an answer stamped a little after its follow-up by another instance's clock, and does not double what the backend sent", async () => {
    const p = await newProject();
    await send(p, turn('b', 1, 'Are you sure?', 0), turn('a', 0, 'How long do refunds take?', 1_500));
    expect(await eventsOn(p, 'a')).toMatchObject([{ detail: { nextTraceId: 'b', gapMs: 0 } }]);
    // A backend that reports the pushback itself, before its follow-up's trace arrives.
    const sent = event({ traceId: 'x', sessionId: 's2', signalType: 'contradicted_by_follow_up', detail: { nextTraceId: 'y', gapMs: 5_000 } });
    expect((await call('/v1/events', { method: 'POST', headers: bearer(p.keys.server), json: { events: [sent] } })).status).toBe(200);
    await send(p, turn('x', 0, 'Refund window?', 0, 's2'), turn('y', 1, "That's wrong", 5_000, 's2'));
    expect((await eventsOn(p, 'x')).map((e) => e.eventId)).toEqual([sent.eventId]);
  });

  it('does not double a pushback the backend sends after the collector recorded it from the traces', async () => {
    const p = await newProject();
    await send(p, turn('a', 0, 'How long do refunds take?', 0), turn('b', 1, "That's wrong", 40_000));
    const own = await pushbackEventId(turn('b', 1, "That's wrong", 40_000));
    const late = event({ traceId: 'a', sessionId: 's1', signalType: 'contradicted_by_follow_up', detail: { nextTraceId: 'b', gapMs: 40_000 } });
    const res = await call('/v1/events', { method: 'POST', headers: bearer(p.keys.server), json: { events: [late] } });
    expect(res.status).toBe(200);
    expect((await eventsOn(p, 'a')).map((e) => e.eventId)).toEqual([own]);
    // The backend's objection to another follow-up of the same answer is its own, and kept.
    const other = event({ traceId: 'a', sessionId: 's1', signalType: 'contradicted_by_follow_up', detail: { nextTraceId: 'c', gapMs: 60_000 } });
    await call('/v1/events', { method: 'POST', headers: bearer(p.keys.server), json: { events: [other] } });
    expect((await eventsOn(p, 'a')).map((e) => e.eventId).sort()).toEqual([own, other.eventId].sort());
  });

  it('leaves the event on the answer it was recorded on when a regenerate of that turn arrives after the follow-up', async () => {
    const p = await newProject();
    await send(p, turn('a', 0, 'How long do refunds take?', 0), turn('b', 1, "That's wrong", 40_000));
    await send(p, turn('a2', 0, 'How long do refunds take?', 20_000));
    expect((await eventsOn(p, 'a')).map((e) => e.signalType)).toEqual(['contradicted_by_follow_up']);
    expect(await eventsOn(p, 'a2')).toEqual([]);
  });

  it('finds the answer before through the session index, not by time across the project', async () => {
    const { sql: statement, params } = new SQLiteSyncDialect().sqlToQuery(pushbackEvents('p', { sessions: ['s1'], from: t0, to: t0 }, t0));
    const plan = (await planOf(statement, ...params)).join('\n');
    expect(plan).toMatch(/SEARCH f USING INDEX traces_session/);
    expect(plan).toMatch(/SEARCH q USING INDEX traces_session/);
    expect(plan).not.toMatch(/traces_created|SCAN (f|q|p)\b/);
  });

  it('makes the same id for the same follow-up, and none for a question that does not push back', async () => {
    const followUp = { traceId: 'b', sessionId: 's1', query: 'Are you sure?' };
    const id = await pushbackEventId(followUp);
    expect(id).toMatch(/^pushback-[0-9a-f]{32}$/);
    expect(await pushbackEventId(followUp)).toBe(id);
    expect(await pushbackEventId({ ...followUp, traceId: 'c' })).not.toBe(id);
    // With a turn index, the turn makes the id: a regenerate of it (another trace) makes the same.
    const ofTurn = await pushbackEventId({ ...followUp, turnIndex: 1 });
    expect(await pushbackEventId({ ...followUp, traceId: 'c', turnIndex: 1 })).toBe(ofTurn);
    expect(await pushbackEventId({ ...followUp, turnIndex: 2 })).not.toBe(ofTurn);
    expect(await pushbackEventId({ ...followUp, query: "What's wrong with my order?" })).toBeNull();
    expect(await pushbackEventId({ ...followUp, sessionId: undefined })).toBeNull();
  });
});
