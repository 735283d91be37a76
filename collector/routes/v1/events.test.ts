import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../../shared/error-body.ts';
import type { BatchResult, ItemResult } from '../../../shared/schema/batch-result.ts';
import type { FeedbackEventInput } from '../../../shared/schema/event.ts';
import { isByBackend, SIGNAL_TYPES, SIGNALS } from '../../../shared/signals.ts';
import { utcDay } from '../../../shared/time.ts';
import { app } from '../../app.ts';
import { bearer, call, counts, event, newProject, ORIGIN, trace } from '../../test/fixtures.ts';

const post = (key: string, events: unknown[], headers: Record<string, string> = {}) =>
  call('/v1/events', { method: 'POST', headers: { ...bearer(key), origin: ORIGIN, ...headers }, json: { events } });

const storedEvents = async (projectId: string, traceId: string) =>
  (
    await env.DB.prepare(
      'select event_id, signal_type, signal_value, superseded, detail from feedback_events where project_id = ? and trace_id = ? order by client_ts',
    )
      .bind(projectId, traceId)
      .all<{ event_id: string; signal_type: string; signal_value: number | null; superseded: number; detail: string }>()
  ).results;

describe('POST /v1/events', () => {
  it("keeps a browser's address (hashed) for a write key's events, and none for a server key's, even when it forwards an Origin", async () => {
    const p = await newProject();
    const [byBrowser, byServer] = [event({ traceId: 't-address' }), event({ traceId: 't-address' })];
    const address = { 'cf-connecting-ip': '203.0.113.7' };
    expect((await post(p.keys.write, [byBrowser], address)).status).toBe(200);
    expect((await post(p.keys.server, [byServer], address)).status).toBe(200);
    const hashOf = (id: string) =>
      env.DB.prepare('select ip_hash from feedback_events where project_id = ? and event_id = ?').bind(p.id, id).first<string | null>('ip_hash');
    expect(await hashOf(byBrowser.eventId)).toMatch(/^[0-9a-f]{16}$/);
    expect(await hashOf(byServer.eventId)).toBeNull();
  });

  it('keeps the address of a write key sent without an Origin too, so a script leaving it out is still counted by address for the flooding rule', async () => {
    const p = await newProject();
    const scripted = event({ traceId: 't-no-origin' });
    const res = await call('/v1/events', {
      method: 'POST',
      headers: { ...bearer(p.keys.write), 'cf-connecting-ip': '203.0.113.8' },
      json: { events: [scripted] },
    });
    expect(res.status).toBe(200);
    const stored = await env.DB.prepare('select ip_hash from feedback_events where project_id = ? and event_id = ?')
      .bind(p.id, scripted.eventId)
      .first<string | null>('ip_hash');
    expect(stored).toMatch(/^[0-9a-f]{16}$/);
  });

  // Every signal only a backend knows (shared/signals.ts, `byBackend`), with a detail of its own.
  const byBackend: Partial<FeedbackEventInput>[] = [
    { signalType: 'support_ticket', detail: { ticketId: 'HD-1' } },
    { signalType: 'contradicted_by_follow_up', detail: { nextTraceId: 'tr-next', gapMs: 30_000 } },
  ];

  it('knows a detail for every signal only a backend sends', () => {
    expect(byBackend.map((e) => e.signalType).sort()).toEqual(SIGNAL_TYPES.filter(isByBackend).sort());
  });

  it.each(byBackend)("refuses $signalType sent with a write key, which any page can use: only a backend's server key sends one", async (backendEvent) => {
    const { signalType } = backendEvent;
    const p = await newProject();
    const t = trace();
    const ticket = (key: string) => post(key, [event({ traceId: t.traceId }), event({ ...backendEvent, traceId: t.traceId })]);
    const byPage = await ticket(p.keys.write);
    expect(byPage.status).toBe(200);
    expect(await byPage.json()).toMatchObject({
      accepted: 1,
      rejected: 1,
      results: [
        { index: 0, status: 'accepted' },
        { index: 1, status: 'rejected', field: 'events[1].signalType' },
      ],
    });
    expect((await ticket(p.keys.server)).status).toBe(200);
    expect((await storedEvents(p.id, t.traceId)).map((r) => r.signal_type).sort()).toEqual([signalType, 'thumbs_up', 'thumbs_up'].sort());
  });

  it("names every field at fault of a rejected event in its fields, keys it does not take too; every event rejected, the 400's fields name each event's", async () => {
    const p = await newProject();
    const t = trace();
    const rating = { ...event({ traceId: t.traceId, signalType: 'rating', detail: { stars: 6 } }), sessionId: 's1 ', colour: 'red', size: 2 };
    const mixed = await post(p.keys.write, [event({ traceId: t.traceId }), rating]);
    expect(mixed.status).toBe(200);
    const ratingFields = ['events[1].sessionId', 'events[1].detail.stars', 'events[1].colour', 'events[1].size'];
    const { results } = (await mixed.json()) as BatchResult;
    const rejected = results[1] as Extract<ItemResult, { status: 'rejected' }>;
    expect(rejected.fields.map((f) => f.field)).toEqual(ratingFields);
    expect(rejected.fields).toContainEqual({ field: 'events[1].size', message: 'is not a field this takes' });
    // The first is named as before, for clients that read field and reason alone.
    expect(rejected).toMatchObject({ index: 1, status: 'rejected', field: rejected.fields[0]!.field, reason: rejected.fields[0]!.message });

    const noId = { ...event({ traceId: t.traceId }), eventId: '', mood: 'calm' };
    const allBad = await post(p.keys.write, [noId, rating]);
    expect(allBad.status).toBe(400);
    const body = (await allBad.json()) as ErrorBody & BatchResult;
    expect(body.error.fields!.map((f) => f.field)).toEqual(['events[0].eventId', 'events[0].mood', ...ratingFields]);
    expect(body.error).toMatchObject({ code: 'invalid_event', field: 'events[0].eventId', message: body.error.fields![0]!.message });
    expect(body.results).toMatchObject([{ status: 'rejected' }, { status: 'rejected', fields: rejected.fields }]);
  });

  it('stores a batch with each signal valued from the one signal table', async () => {
    const p = await newProject();
    const t = trace();
    const batch = [
      event({ traceId: t.traceId, signalType: 'thumbs_up' }),
      event({ traceId: t.traceId, signalType: 'citation_click', detail: { chunkId: 'c1' } }),
      event({ traceId: t.traceId, signalType: 'rating', detail: { stars: 2 } }),
      event({ traceId: t.traceId, signalType: 'citation_dwell', detail: { chunkId: 'c1', ms: 20_000, mode: 'away' } }),
      event({ traceId: t.traceId, signalType: 'answer_dwell', detail: { ms: 4_000 } }),
    ];
    const res = await post(p.keys.write, batch);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: 5, duplicate: 0, rejected: 0 });
    const rows = await storedEvents(p.id, t.traceId);
    expect(rows.map((r) => [r.signal_type, r.signal_value])).toEqual([
      ['thumbs_up', SIGNALS.thumbs_up.value],
      ['citation_click', SIGNALS.citation_click.value],
      ['rating', -0.5],
      ['citation_dwell', 0.3],
      ['answer_dwell', null],
    ]);
    expect(JSON.parse(rows[2]!.detail)).toEqual({ stars: 2 });
  });

  it('is idempotent by event id: a retried batch stores nothing twice and says so per event', async () => {
    const p = await newProject();
    const t = trace();
    const batch = [event({ traceId: t.traceId }), event({ traceId: t.traceId, signalType: 'copy_answer', detail: { chars: 40 } })];
    expect(await (await post(p.keys.write, batch)).json()).toMatchObject({ accepted: 2 });
    const before = await counts(p.id);
    const extra = event({ traceId: t.traceId, signalType: 'bounce', detail: { ms: 3000 } });
    const retry = await post(p.keys.write, [...batch, extra, extra]);
    expect(await retry.json()).toEqual({
      accepted: 1,
      duplicate: 3,
      rejected: 0,
      rateLimited: 0,
      results: [
        { index: 0, id: batch[0]!.eventId, status: 'duplicate' },
        { index: 1, id: batch[1]!.eventId, status: 'duplicate' },
        { index: 2, id: extra.eventId, status: 'accepted' },
        { index: 3, id: extra.eventId, status: 'duplicate' },
      ],
    });
    expect((await counts(p.id)).feedback_events).toBe(before.feedback_events! + 1);
  });

  it("keeps only a session's latest vote live, and every vote for audit", async () => {
    const p = await newProject();
    const t = trace();
    const up = event({ traceId: t.traceId, signalType: 'thumbs_up', clientTs: 1_800_000_000_000 });
    const down = event({ traceId: t.traceId, signalType: 'thumbs_down', clientTs: 1_800_000_001_000 });
    const otherSession = event({ traceId: t.traceId, sessionId: 's2', signalType: 'thumbs_up', clientTs: 1_800_000_000_500 });
    // The flip arrives first and the older vote later (a retried batch): order of arrival must not matter.
    await post(p.keys.write, [down]);
    await post(p.keys.write, [up, otherSession]);
    const rows = await storedEvents(p.id, t.traceId);
    expect(rows.map((r) => [r.event_id, r.superseded])).toEqual([
      [up.eventId, 1],
      [otherSession.eventId, 0],
      [down.eventId, 0],
    ]);
    const cleared = event({ traceId: t.traceId, signalType: 'vote_cleared', clientTs: 1_800_000_002_000 });
    await post(p.keys.write, [cleared]);
    const after = await storedEvents(p.id, t.traceId);
    expect(after.filter((r) => !r.superseded).map((r) => r.event_id)).toEqual([otherSession.eventId, cleared.eventId]);

    await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
    const read = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as any;
    expect(read.events).toHaveLength(4);
    expect(read.summary).toEqual({ score: 1, liveEvents: 2 });
  });

  it('takes text/plain bodies with the key in the body or the query string, as sendBeacon sends them', async () => {
    const p = await newProject();
    const t = trace();
    const inBody = await call('/v1/events', {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN },
      body: JSON.stringify({ writeKey: p.keys.write, events: [event({ traceId: t.traceId })] }),
    });
    expect(inBody.status).toBe(200);
    expect(inBody.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const inQuery = await call(`/v1/events?key=${p.keys.write}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: ORIGIN },
      body: JSON.stringify({ events: [event({ traceId: t.traceId })] }),
    });
    expect(await inQuery.json()).toMatchObject({ accepted: 1 });
    expect((await counts(p.id)).feedback_events).toBe(2);
  });

  it("adds a widget's dropped-events reports to the project's daily count", async () => {
    const p = await newProject();
    const t = trace();
    const send = (dropped: number) =>
      call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events: [event({ traceId: t.traceId })], dropped } });
    const before = utcDay(Date.now());
    expect((await send(7)).status).toBe(200);
    expect((await send(5)).status).toBe(200);
    const after = utcDay(Date.now());
    const { results } = await env.DB.prepare('select day, sum(dropped) as dropped from client_drop_reports where project_id = ? group by day')
      .bind(p.id)
      .all<{ day: string; dropped: number }>();
    // Counted on the day they arrived: the one before or after midnight, should the test cross it.
    expect(results.every((r) => r.day === before || r.day === after)).toBe(true);
    expect(results.reduce((n, r) => n + r.dropped, 0)).toBe(12);
  });

  it('counts a drop report once however often its batch is sent, whether its events were new or stored before', async () => {
    const p = await newProject();
    const t = trace();
    const send = (events: unknown[], dropped?: number) =>
      call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events, dropped } });
    const drops = async () =>
      (await env.DB.prepare('select sum(dropped) as dropped from client_drop_reports where project_id = ?').bind(p.id).first<{ dropped: number | null }>())
        ?.dropped;

    // Sent again after its answer was lost: once; a retry that also carries drops made since counts those.
    const batch = [event({ traceId: t.traceId }), event({ traceId: t.traceId, signalType: 'thumbs_down' })];
    expect(await (await send(batch, 7)).json()).toMatchObject({ accepted: 2 });
    expect(await (await send(batch, 7)).json()).toMatchObject({ accepted: 0, duplicate: 2 });
    expect(await drops()).toBe(7);
    expect(await (await send([...batch, event({ traceId: t.traceId })], 9)).json()).toMatchObject({ accepted: 1, duplicate: 2 });
    expect(await drops()).toBe(9);

    // Its events stored first by a page-hide beacon, which carries no report: the report still counts.
    const beaconed = [event({ traceId: t.traceId })];
    expect(await (await send(beaconed)).json()).toMatchObject({ accepted: 1 });
    expect(await (await send(beaconed, 3)).json()).toMatchObject({ accepted: 0, duplicate: 1 });
    expect(await drops()).toBe(12);

    // Keyed by the first valid event: the same whenever the mixed batch is sent.
    const mixed = [{ ...event({ traceId: t.traceId }), clientTs: 'yesterday' }, event({ traceId: t.traceId })];
    expect(await (await send(mixed, 4)).json()).toMatchObject({ accepted: 1, rejected: 1 });
    expect(await (await send(mixed, 4)).json()).toMatchObject({ duplicate: 1, rejected: 1 });
    expect(await drops()).toBe(16);
  });

  it('keys a drop report by the first valid event whether its session was held back over its limit or not, counting it once', async () => {
    const p = await newProject();
    const t = trace();
    // A session's limit low enough to spend in a few events.
    const bindings = { RATE_LIMIT_SESSION_PER_MIN: '3' };
    const [a, b] = [`a-${crypto.randomUUID()}`, `b-${crypto.randomUUID()}`];
    const send = (events: unknown[], dropped?: number) =>
      call('/v1/events', { method: 'POST', headers: { ...bearer(p.keys.write), origin: ORIGIN }, json: { events, dropped }, bindings });
    const batch = [event({ traceId: t.traceId, sessionId: a }), event({ traceId: t.traceId, sessionId: b })];
    expect(await (await send(batch, 3)).json()).toMatchObject({ accepted: 2 });
    // Session a spends its limit; the batch sent again (another tab, a lost answer) has its first event held back.
    expect((await send([event({ traceId: t.traceId, sessionId: a }), event({ traceId: t.traceId, sessionId: a })])).status).toBe(200);
    const again = await send(batch, 3);
    expect(again.status).toBe(429);
    expect(await again.json()).toMatchObject({ duplicate: 1, rateLimited: 1 });
    const reports = await env.DB.prepare('select event_id, dropped from client_drop_reports where project_id = ?').bind(p.id).all();
    expect(reports.results).toEqual([{ event_id: batch[0]!.eventId, dropped: 3 }]);
  });

  it('refuses a streamed body without Content-Length once it passes 64 KB, storing nothing', async () => {
    const p = await newProject();
    const t = trace();
    const json = new TextEncoder().encode(
      JSON.stringify({ events: [event({ traceId: t.traceId, signalType: 'correction', detail: { text: 'x'.repeat(3_000) } })] }),
    );
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 100 * 1024) return controller.close();
        sent += json.length;
        controller.enqueue(json);
      },
    });
    // In process: a stream handed across the Worker boundary would be left mid-pipe by the early answer.
    const headers = { ...bearer(p.keys.write), 'content-type': 'application/json', 'cf-connecting-ip': crypto.randomUUID() };
    const res = await app.request('/v1/events', { method: 'POST', headers, body }, env);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'payload_too_large', field: 'body' } });
    expect(sent).toBeLessThan(80 * 1024);
    expect((await counts(p.id)).feedback_events).toBe(0);
  });

  it('redacts free text before storing it', async () => {
    const p = await newProject();
    const t = trace();
    await post(p.keys.write, [
      event({ traceId: t.traceId, signalType: 'correction', detail: { text: 'Call me on 13812345678 or mail bob@corp.cn', source: 'policy v2' } }),
    ]);
    const [row] = await storedEvents(p.id, t.traceId);
    expect(JSON.parse(row!.detail)).toEqual({ text: 'Call me on [PHONE] or mail [EMAIL]', source: 'policy v2' });
  });

  it('redacts postal addresses before storing, which the widget sends as typed', async () => {
    const p = await newProject();
    const t = trace();
    await post(p.keys.write, [
      event({
        traceId: t.traceId,
        signalType: 'correction',
        detail: { text: '寄到北京市朝阳区建国路88号3单元502室，或 1600 Amphitheatre Parkway, Mountain View, CA 94043' },
      }),
    ]);
    const [row] = await storedEvents(p.id, t.traceId);
    expect(JSON.parse(row!.detail)).toEqual({ text: '寄到[ADDRESS]，或 [ADDRESS]' });
  });
});
