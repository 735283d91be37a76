/** The corrections inbox lists a correction with the answer it is about, as the multi-turn attribution found it. */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Correction } from '../../shared/admin-api/documents.ts';
import type { TraceInput } from '../../shared/schema/trace.ts';
import { correctionsListed } from '../test/corrections.ts';
import { adminCall as admin, bearer, call, newProject, rowsNaming, sendTraffic as send, trace } from '../test/fixtures.ts';
import { hookedD1 } from '../test/hooked-d1.ts';
import { signedInMidConversation } from '../test/sessions.ts';
import { runNightly } from './nightly.ts';

type Project = Awaited<ReturnType<typeof newProject>>;

/** After the events were stored: the night's run sees everything sent so far. */
const tonight = () => Date.now() + 1_000;

/** What the inbox lists of each correction's answer, open or resolved. */
async function listed(p: Project, status: Correction['status'] = 'open') {
  return (await correctionsListed(p, status)).map(({ traceId, query, sentUnder }) => ({ traceId, query, sentUnder }));
}

describe('the corrections inbox', () => {
  it('lists a correction the attribution moved onto an earlier answer with that answer’s question and trace, and the answer it was sent under', async () => {
    const p = await newProject();
    const { first, theirs, correction } = signedInMidConversation();
    await send(p, [first, theirs], [correction]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const about = { traceId: first.traceId, query: first.query, sentUnder: { traceId: theirs.traceId, query: theirs.query } };
    expect(await listed(p)).toEqual([about]);
    // Resolved, it is still listed with the answer it was about.
    const [{ eventId }] = (await correctionsListed(p)) as [Correction];
    expect((await admin(p, `/corrections/${eventId}/resolve`, { method: 'POST', json: { note: 'refunds.md fixed' } })).status).toBe(200);
    expect(await listed(p, 'resolved')).toEqual([about]);
  });

  it('lists a correction under the answer it was sent on until a later night moves it onto the earlier answer', async () => {
    const p = await newProject();
    const { sessionId, first, theirs, correction } = signedInMidConversation();
    // The first turn's trace is logged late: tonight the correction has no earlier turn to go to.
    await send(p, [theirs], [correction]);
    await runNightly(env, tonight(), { projects: [p.id] });
    expect(await listed(p)).toEqual([{ traceId: theirs.traceId, query: theirs.query, sentUnder: null }]);
    // A new event on the follow-up has it judged again, with the earlier turn there now.
    await send(p, [first], [{ traceId: theirs.traceId, sessionId, signalType: 'citation_click', detail: { chunkId: 'good' } }]);
    await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    expect(await listed(p)).toEqual([{ traceId: first.traceId, query: first.query, sentUnder: { traceId: theirs.traceId, query: theirs.query } }]);
  });

  it('lists a correction under the answer it was sent on once the earlier answer’s user is erased, keeping nothing of theirs', async () => {
    const p = await newProject();
    const { first, theirs, correction } = signedInMidConversation();
    // Someone else asked the earlier question on the shared device.
    const earlier: TraceInput = { ...first, userIdHash: 'u-earlier' };
    await send(p, [earlier, theirs], [correction]);
    await runNightly(env, tonight(), { projects: [p.id] });
    expect((await listed(p))[0]!.traceId).toBe(earlier.traceId);
    expect((await admin(p, '/users/u-earlier', { method: 'DELETE' })).status).toBe(200);
    expect(await listed(p)).toEqual([{ traceId: theirs.traceId, query: theirs.query, sentUnder: null }]);
    expect(await rowsNaming(p.id, [earlier.traceId, 'u-earlier'])).toEqual([]);
  });

  it('routes a correction by the answer it was sent on again, at the next run, once the earlier answer’s user is erased', async () => {
    const p = await newProject();
    const { first, theirs, correction } = signedInMidConversation();
    const citing = (t: TraceInput, sourceDocId: string): TraceInput => ({
      ...t,
      retrievedChunks: t.retrievedChunks.map((c) => ({ ...c, sourceDocId })),
    });
    await send(p, [citing({ ...first, userIdHash: 'u-earlier' }, 'credit.md'), citing(theirs, 'shipping.md')], [correction]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const routedTo = async () => (await correctionsListed(p)).map((c) => c.sourceDocId);
    expect(await routedTo()).toEqual(['credit.md']);
    expect((await admin(p, '/users/u-earlier', { method: 'DELETE' })).status).toBe(200);
    await runNightly(env, tonight() + 86_400_000, { projects: [p.id] });
    expect(await routedTo()).toEqual(['shipping.md']);
  });

  it('routes a correction about an earlier answer that cited no document by no document, not by the later answer’s', async () => {
    const p = await newProject();
    const { first, theirs, correction } = signedInMidConversation();
    // The earlier answer came from no retrieval (the assistant answered it alone); the later one cited shipping.md.
    const uncited: TraceInput = { ...first, retrievedChunks: [] };
    const shipping: TraceInput = { ...theirs, retrievedChunks: theirs.retrievedChunks.map((c) => ({ ...c, sourceDocId: 'shipping.md' })) };
    await admin(p, '/owners', { method: 'PUT', json: { owners: [{ pattern: 'shipping.md', owner: 'logistics' }] } });
    await send(p, [uncited, shipping], [correction]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const inbox = await admin<{ owners: { owner: string | null; corrections: Correction[] }[] }>(p, '/corrections');
    expect(inbox.body.owners.map((o) => [o.owner, o.corrections.map((c) => [c.traceId, c.sourceDocId])])).toEqual([[null, [[first.traceId, null]]]]);
  });

  it('lists a resolved correction under the owner it was routed to when resolved, whatever the owner rules say later', async () => {
    const p = await newProject();
    const corrected = (session: string, text: string, source: string) => {
      // The answer showed both documents: each correction is routed by the one it names.
      const t = trace({ sessionId: session, createdAt: Date.now() - 60_000, rerankedChunks: undefined });
      return { t, correction: { traceId: t.traceId, sessionId: session, signalType: 'correction' as const, detail: { text, source } } };
    };
    const refunds = corrected('alice-fixed', 'Refunds take 30 days now', 'refunds.md');
    const shipping = corrected('nobody-owned', 'Shipping takes a week', 'shipping.md');
    const stillOpen = corrected('open', 'Opened items: 7 days', 'refunds.md');
    await admin(p, '/owners', { method: 'PUT', json: { owners: [{ pattern: 'refunds.md', owner: 'alice' }] } });
    await send(p, [refunds.t, shipping.t, stillOpen.t], [refunds.correction, shipping.correction, stillOpen.correction]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const inbox = async (status: Correction['status']) => {
      const { body } = await admin<{ owners: { owner: string | null; corrections: Correction[] }[] }>(p, `/corrections?status=${status}`);
      // Each correction also names the owner of the group it is in.
      for (const o of body.owners) for (const c of o.corrections) expect(c.owner).toBe(o.owner);
      return Object.fromEntries(body.owners.map((o) => [o.owner ?? 'unowned', o.corrections.map((c) => c.text)]));
    };
    const idOf = async (text: string) =>
      (await env.DB.prepare('select event_id from corrections where project_id = ? and text = ?').bind(p.id, text).first<string>('event_id'))!;
    for (const resolved of [refunds, shipping]) {
      const id = await idOf(resolved.correction.detail.text);
      expect((await admin(p, `/corrections/${id}/resolve`, { method: 'POST', json: { note: 'fixed' } })).status).toBe(200);
    }

    // The rules change: bob owns every document now.
    await admin(p, '/owners', { method: 'PUT', json: { owners: [{ pattern: '*', owner: 'bob' }] } });
    // Resolved ones stay where they were resolved (one no rule matched then, unowned); open ones follow the rules.
    expect(await inbox('resolved')).toEqual({ alice: [refunds.correction.detail.text], unowned: [shipping.correction.detail.text] });
    expect(await inbox('open')).toEqual({ bob: [stillOpen.correction.detail.text] });

    // One resolved before the owner was recorded is listed by the current rules.
    await env.DB.prepare('update corrections set resolved_owner = null where project_id = ? and event_id = ?')
      .bind(p.id, await idOf(refunds.correction.detail.text))
      .run();
    expect(await inbox('resolved')).toEqual({ bob: [refunds.correction.detail.text], unowned: [shipping.correction.detail.text] });
  });

  it('answers 409, the correction left open, when the nightly job re-routes it each time it is about to be resolved', async () => {
    const p = await newProject();
    const t = trace({ sessionId: 'moving' });
    await send(p, [t], [{ traceId: t.traceId, sessionId: 'moving', signalType: 'correction', detail: { text: 'Refunds take 30 days now' } }]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const [{ eventId }] = (await correctionsListed(p)) as [Correction];
    let moves = 0;
    // Before each try's write, the job moves it to another document, as a night re-routing open ones does.
    const racing = hookedD1(env.DB, async ({ sql }, run) => {
      if (sql[0]?.includes("set status = 'resolved'"))
        await env.DB.prepare('update corrections set source_doc_id = ? where project_id = ? and event_id = ?').bind(`moved-${++moves}.md`, p.id, eventId).run();
      return run();
    });
    const res = await call(`/v1/admin/corrections/${eventId}/resolve`, {
      method: 'POST',
      headers: bearer(p.keys.admin),
      json: { note: 'fixed' },
      bindings: { DB: racing },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'correction_rerouted', field: 'eventId' } });
    expect(moves).toBe(3);
    expect(await env.DB.prepare('select status, note from corrections where project_id = ? and event_id = ?').bind(p.id, eventId).first()).toEqual({
      status: 'open',
      note: null,
    });
    // Left alone, it resolves.
    expect((await admin(p, `/corrections/${eventId}/resolve`, { method: 'POST', json: { note: 'fixed' } })).status).toBe(200);
  });

  it('answers 409 correction_resolved when another admin resolved it while the last try was being written', async () => {
    const p = await newProject();
    const t = trace({ sessionId: 'moving' });
    await send(p, [t], [{ traceId: t.traceId, sessionId: 'moving', signalType: 'correction', detail: { text: 'Refunds take 30 days now' } }]);
    await runNightly(env, tonight(), { projects: [p.id] });
    const [{ eventId }] = (await correctionsListed(p)) as [Correction];
    let tries = 0;
    // The job moves it before the first two tries' writes; before the third, another admin resolves it.
    const racing = hookedD1(env.DB, async ({ sql }, run) => {
      if (sql[0]?.includes("set status = 'resolved'")) {
        const other = ++tries === 3;
        await env.DB.prepare(
          other
            ? "update corrections set status = 'resolved', note = 'theirs' where project_id = ? and event_id = ?"
            : `update corrections set source_doc_id = 'moved-${tries}.md' where project_id = ? and event_id = ?`,
        )
          .bind(p.id, eventId)
          .run();
      }
      return run();
    });
    const res = await call(`/v1/admin/corrections/${eventId}/resolve`, {
      method: 'POST',
      headers: bearer(p.keys.admin),
      json: { note: 'mine' },
      bindings: { DB: racing },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'correction_resolved', field: 'eventId' } });
    expect(await env.DB.prepare('select status, note from corrections where project_id = ? and event_id = ?').bind(p.id, eventId).first()).toEqual({
      status: 'resolved',
      note: 'theirs',
    });
  });

  it('lists a correction about the answer it was sent on with that answer and nothing sent under another', async () => {
    const p = await newProject();
    const t = trace({ sessionId: 'alone', query: 'Can I return opened items?' });
    await send(p, [t], [{ traceId: t.traceId, sessionId: 'alone', signalType: 'correction', detail: { text: 'Opened items can be returned within 14 days' } }]);
    await runNightly(env, tonight(), { projects: [p.id] });
    expect(await listed(p)).toEqual([{ traceId: t.traceId, query: t.query, sentUnder: null }]);
  });
});
