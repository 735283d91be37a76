import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../../shared/error-body.ts';
import type { BatchResult, ItemResult } from '../../../shared/schema/batch-result.ts';
import { bearer, call, counts, event, newProject, trace } from '../../test/fixtures.ts';

describe('POST /v1/traces and GET /v1/traces/:id', () => {
  it.each([
    ['base64, spaces, Unicode', ['dXNlcjoxMjM+Lz8=', 'chat 42', '退款政策-1', 'refunds.md § 2']],
    // Persian writes a zero-width non-joiner inside words, an emoji sequence a zero-width joiner.
    ['titles whose words or emoji hold zero-width joiners', ['می\u200cخواهم-1', 'chat 42', 'سیاست\u200cهای بازگشت#1', '👩\u200d💻 Onboarding.md']],
    // A Wikipedia title as the document id (FEVER, DBPedia), with a chunk's suffix.
    [
      'a document named by a long title',
      ['t'.repeat(512), 's'.repeat(512), `${'Antidepressant_("5691302")_'.repeat(11)}#0`, 'Antidepressant_("5691302")_'.repeat(11)],
    ],
  ])("takes ids in a team's own formats (%s) and finds the answer's feedback by them", async (_, ids) => {
    const [traceId, sessionId, chunkId, sourceDocId] = ids as [string, string, string, string];
    const p = await newProject();
    const t = trace({ traceId, sessionId, retrievedChunks: [{ chunkId, sourceDocId, score: 0.8, rank: 1, text: '14 days.' }], rerankedChunks: [] });
    expect(await (await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t })).json()).toMatchObject({ accepted: 1 });
    const flag = event({ traceId, sessionId, signalType: 'wrong_source', detail: { chunkId } });
    expect(await (await call('/v1/events', { method: 'POST', headers: bearer(p.keys.write), json: { events: [flag] } })).json()).toMatchObject({ accepted: 1 });

    const read = await call(`/v1/traces/${encodeURIComponent(traceId)}`, { headers: bearer(p.keys.admin) });
    const body = (await read.json()) as {
      trace: { sessionId: string };
      retrievedChunks: { chunkId: string; sourceDocId: string }[];
      events: { detail: unknown }[];
    };
    expect(body.trace.sessionId).toBe(sessionId);
    expect(body.retrievedChunks).toMatchObject([{ chunkId, sourceDocId }]);
    expect(body.events).toMatchObject([{ detail: { chunkId } }]);
  });

  it('stores one trace with its chunks per stage and reads it back whole', async () => {
    const p = await newProject();
    const t = trace({
      rewrittenQuery: 'refund window opened items',
      retrieval: { topK: 2, threshold: 0.5, embeddingModel: 'bge-small' },
      prompt: 'Answer from context',
      rerankerVersion: 'rr-1',
      intent: 'refunds',
      knowledgeBase: 'help',
      turnIndex: 2,
      userIdHash: 'u_ab12',
    });
    const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: 1, duplicate: 0, rejected: 0, results: [{ index: 0, id: t.traceId, status: 'accepted' }] });

    const read = await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) });
    expect(read.status).toBe(200);
    const body = (await read.json()) as any;
    expect(body.trace).toMatchObject({
      traceId: t.traceId,
      query: t.query,
      rewrittenQuery: 'refund window opened items',
      topK: 2,
      threshold: 0.5,
      embeddingModel: 'bge-small',
      prompt: 'Answer from context',
      answer: t.answer,
      model: 'gpt-test',
      rerankerVersion: 'rr-1',
      intent: 'refunds',
      knowledgeBase: 'help',
      turnIndex: 2,
      userIdHash: 'u_ab12',
      sessionId: 's1',
      createdAt: t.createdAt,
    });
    expect(body.retrievedChunks.map((c: any) => [c.rank, c.chunkId, c.sourceDocId, c.sourceDocVersion, c.score])).toEqual([
      [1, 'c1', 'refunds.md', 'v3', 0.82],
      [2, 'c2', 'shipping.md', null, 0.71],
    ]);
    expect(body.rerankedChunks).toEqual([expect.objectContaining({ chunkId: 'c1', score: 0.93, rank: 1, text: t.retrievedChunks[0]!.text })]);
    expect(body.events).toEqual([]);
  });

  it('takes a batch, and a retried batch stores nothing twice', async () => {
    const p = await newProject();
    const batch = [trace(), trace(), trace()];
    const first = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: batch });
    expect(await first.json()).toMatchObject({ accepted: 3, duplicate: 0 });
    const before = await counts(p.id);
    const retry = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: batch });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ accepted: 0, duplicate: 3, rejected: 0 });
    expect(await counts(p.id)).toEqual(before);
    expect(before.traces).toBe(3);
    expect(before.trace_chunks).toBe(9);
  });

  it('keeps the first write of a trace id, chunks included, from another batch or the same one', async () => {
    const p = await newProject();
    const first = trace({ rerankedChunks: [] });
    const other = trace({ traceId: first.traceId, query: 'another question', rerankedChunks: [{ ...first.retrievedChunks[0]!, rank: 1 }] });
    await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: first });
    const again = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: other });
    expect(await again.json()).toMatchObject({ accepted: 0, duplicate: 1 });
    const both = trace();
    const repeated = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [{ ...both, rerankedChunks: [] }, both] });
    expect(await repeated.json()).toMatchObject({ accepted: 1, duplicate: 1 });

    for (const t of [first, both]) {
      const read = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as any;
      expect(read.trace.query).toBe(t.query);
      expect(read.retrievedChunks).toHaveLength(2);
      expect(read.rerankedChunks).toEqual([]);
    }
    expect(await counts(p.id)).toMatchObject({ traces: 2, trace_chunks: 4 });
  });

  it('stores traces with many long chunks (more than D1 binds in one statement)', async () => {
    const p = await newProject();
    const chunks = Array.from({ length: 60 }, (_, i) => ({
      chunkId: `k${i}`,
      sourceDocId: `d${i % 7}`,
      score: 1 - i / 100,
      rank: i + 1,
      text: 'x'.repeat(15_000),
    }));
    const res = await call('/v1/traces', {
      method: 'POST',
      headers: bearer(p.keys.server),
      json: trace({ retrievedChunks: chunks, rerankedChunks: chunks.slice(0, 10) }),
    });
    expect(await res.json()).toMatchObject({ accepted: 1 });
    expect((await counts(p.id)).trace_chunks).toBe(70);
  });

  it('redacts PII in the query and answer before storing', async () => {
    const p = await newProject();
    const t = trace({ query: 'my email is ann@example.com, card 4111 1111 1111 1111', answer: 'We will call +44 20 7946 0958.' });
    await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
    const body = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as any;
    expect(body.trace.query).toBe('my email is [EMAIL], card [CARD]');
    expect(body.trace.answer).toBe('We will call [PHONE].');
  });

  it('redacts postal addresses in the query before storing', async () => {
    const p = await newProject();
    const t = trace({ query: 'deliver to 221B Baker Street or 上海市淮海中路100弄5号302室' });
    await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
    const body = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as any;
    expect(body.trace.query).toBe('deliver to [ADDRESS] or [ADDRESS]');
  });

  it('drops control characters from the query and answer, keeping tabs and line breaks, and spacing words a form feed parted', async () => {
    const p = await newProject();
    const t = trace({ query: 'refund\u0000 window\u0007\u009b?', answer: 'Line one\r\nline\ttwo\u001b[0m\u007f.\fPage\u000btwo\u0085three' });
    expect((await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t })).status).toBe(200);
    const body = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as any;
    expect(body.trace.query).toBe('refund window?');
    // A form feed or vertical tab (text from a PDF) parts words: a space.
    expect(body.trace.answer).toBe('Line one\r\nline\ttwo[0m. Page two three');
  });

  it('joins feedback that arrived before its trace', async () => {
    const p = await newProject();
    const t = trace();
    const early = event({ traceId: t.traceId, signalType: 'thumbs_down' });
    expect((await call('/v1/events', { method: 'POST', headers: bearer(p.keys.write), json: { events: [early] } })).status).toBe(200);

    const pending = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as any;
    expect(pending.trace).toBeNull();
    expect(pending.events.map((e: any) => e.eventId)).toEqual([early.eventId]);

    await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
    const joined = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as any;
    expect(joined.trace.traceId).toBe(t.traceId);
    expect(joined.events).toEqual([expect.objectContaining({ eventId: early.eventId, signalType: 'thumbs_down', signalValue: -1 })]);
    expect(joined.summary).toEqual({ score: -1, liveEvents: 1 });
  });

  it('answers 404 for a trace that has neither a record nor feedback, and hides other projects', async () => {
    const p = await newProject();
    const other = await newProject();
    const t = trace();
    await call('/v1/traces', { method: 'POST', headers: bearer(other.keys.server), json: t });
    const res = await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'trace_not_found', field: 'id' } });
  });

  it('accepts the valid traces of a mixed batch and names the bad one', async () => {
    const p = await newProject();
    const good = trace();
    const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [good, { ...trace(), model: 7 }] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      accepted: 1,
      rejected: 1,
      results: [
        { index: 0, status: 'accepted' },
        { index: 1, status: 'rejected', field: 'traces[1].model' },
      ],
    });
  });

  it("names every field at fault of a rejected trace in its fields, keys it does not take too; alone, the 400's fields name them all", async () => {
    const p = await newProject();
    const t = trace();
    const bad = { ...trace(), model: 7, answer: 7, colour: 'red', retrievedChunks: [{ ...t.retrievedChunks[0]!, rank: 0, size: 2 }] };
    const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [trace(), bad] });
    expect(res.status).toBe(200);
    const badFields = ['retrievedChunks[0].rank', 'retrievedChunks[0].size', 'answer', 'model', 'colour'];
    const rejected = ((await res.json()) as BatchResult).results[1] as Extract<ItemResult, { status: 'rejected' }>;
    expect(rejected.fields.map((f) => f.field)).toEqual(badFields.map((f) => `traces[1].${f}`));
    expect(rejected).toMatchObject({ field: rejected.fields[0]!.field, reason: rejected.fields[0]!.message });

    const alone = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: bad });
    expect(alone.status).toBe(400);
    const body = (await alone.json()) as ErrorBody & BatchResult;
    expect(body.error.fields!.map((f) => f.field)).toEqual(badFields.map((f) => `trace.${f}`));
    expect(body.error).toMatchObject({ code: 'invalid_trace', field: 'trace.retrievedChunks[0].rank', message: body.error.fields![0]!.message });
  });

  it("refuses an answer made before the aggregates' retention, naming its createdAt, and takes the others of the batch", async () => {
    const p = await newProject();
    const DAY = 86_400_000;
    // The project keeps its day counts 400 days: an answer of 401 days ago would be counted, then purged at once.
    const saved = await call('/v1/admin/settings', { method: 'PUT', headers: bearer(p.keys.admin), json: { aggregateRetentionDays: 400 } });
    expect(saved.status).toBe(200);
    const [old, kept] = [trace({ createdAt: Date.now() - 401 * DAY }), trace({ createdAt: Date.now() - 399 * DAY })];
    const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [old, kept] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      accepted: 1,
      rejected: 1,
      results: [
        { index: 0, status: 'rejected', field: 'traces[0].createdAt', reason: expect.stringMatching(/aggregateRetentionDays \(400\)/) },
        { index: 1, status: 'accepted' },
      ],
    });
    expect(await counts(p.id)).toMatchObject({ traces: 1 });
    // Alone, it is a 400 naming the field.
    const alone = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: trace({ createdAt: Date.now() - 500 * DAY }) });
    expect(alone.status).toBe(400);
    expect(await alone.json()).toMatchObject({ error: { code: 'invalid_trace', field: 'trace.createdAt' } });
  });

  it('refuses a stage with two chunks at one rank, naming the second, and stores nothing of that trace', async () => {
    const p = await newProject();
    const t = trace();
    const [first, second] = t.retrievedChunks;
    const sameRank = { ...t, retrievedChunks: [first!, { ...second!, rank: first!.rank }] };
    const res = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: sameRank });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_trace', field: 'trace.retrievedChunks[1].rank' }, accepted: 0, rejected: 1 });

    const good = trace();
    const reranked = trace({ rerankedChunks: [first!, { ...second!, rank: 3 }, { ...second!, chunkId: 'c3', rank: 3 }] });
    const batch = await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: [good, reranked] });
    expect(batch.status).toBe(200);
    expect(await batch.json()).toMatchObject({
      accepted: 1,
      rejected: 1,
      results: [
        { index: 0, status: 'accepted' },
        { index: 1, status: 'rejected', field: 'traces[1].rerankedChunks[2].rank' },
      ],
    });
    expect(await counts(p.id)).toMatchObject({ traces: 1, trace_chunks: 3 });
  });

  it('keeps a chunk id that a stage lists at two ranks', async () => {
    const p = await newProject();
    const [first] = trace().retrievedChunks;
    const t = trace({ retrievedChunks: [first!, { ...first!, rank: 2, score: 0.5 }], rerankedChunks: [] });
    expect(await (await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t })).json()).toMatchObject({ accepted: 1 });
    const read = (await (await call(`/v1/traces/${t.traceId}`, { headers: bearer(p.keys.admin) })).json()) as any;
    expect(read.retrievedChunks.map((c: any) => [c.rank, c.chunkId, c.score])).toEqual([
      [1, 'c1', 0.82],
      [2, 'c1', 0.5],
    ]);
  });
});
