import { describe, expect, it } from 'vitest';
import { defaultWidgetConfig } from '../../../shared/schema/config.ts';
import { bearer, call, counts, event, newProject, ORIGIN, trace } from '../../test/fixtures.ts';

/** A 400 naming these query parameters, in order. */
async function refusedNaming(res: Response, ...names: string[]) {
  expect(res.status).toBe(400);
  const { error } = (await res.json()) as { error: { code: string; field: string; fields: { field: string }[] } };
  expect(error.code).toBe('invalid_query');
  expect(error.fields.map((f) => f.field)).toEqual(names.map((n) => `query.${n}`));
}

describe('a /v1 route given a query parameter it does not take', () => {
  it('refuses it, naming it, rather than doing what the route does without it', async () => {
    const p = await newProject();
    // A dry run of a save would replace the config for real.
    await refusedNaming(await call('/v1/config?dryRun=true', { method: 'PUT', headers: bearer(p.keys.admin), json: { rating: true } }), 'dryRun');
    expect(await (await call('/v1/admin/config', { headers: bearer(p.keys.admin) })).json()).toEqual(defaultWidgetConfig());
    const t = trace();
    await refusedNaming(await call('/v1/traces?dryRun=1', { method: 'POST', headers: bearer(p.keys.server), json: t }), 'dryRun');
    expect((await counts(p.id)).traces).toBe(0);
    // A topK it would not apply.
    const chunks = [{ chunkId: 'c1', text: 'refunds' }];
    await refusedNaming(await call('/v1/rerank?topK=3', { method: 'POST', headers: bearer(p.keys.server), json: { query: 'refunds', chunks } }), 'topK');
    await refusedNaming(await call('/v1/reranker?version=v1', { headers: bearer(p.keys.server) }), 'version');
    await refusedNaming(await call(`/v1/traces/${t.traceId}?full=1&x=2`, { headers: bearer(p.keys.admin) }), 'full', 'x');
    // The health probe answers whatever a monitor adds.
    expect((await call('/v1/health?nocache=1')).status).toBe(200);
  });

  it('refuses a parameter given as a bare flag, with no = (`?dryRun`), as one given a value, rather than erasing or saving', async () => {
    const p = await newProject();
    const t = trace({ userIdHash: 'u-1' });
    await call('/v1/traces', { method: 'POST', headers: bearer(p.keys.server), json: t });
    await refusedNaming(await call('/v1/admin/users/u-1?dryRun', { method: 'DELETE', headers: bearer(p.keys.admin) }), 'dryRun');
    expect((await counts(p.id)).traces).toBe(1);
    await refusedNaming(await call('/v1/config?dryRun', { method: 'PUT', headers: bearer(p.keys.admin), json: { rating: true } }), 'dryRun');
    expect(await (await call('/v1/admin/config', { headers: bearer(p.keys.admin) })).json()).toEqual(defaultWidgetConfig());
    // A parameter the route takes, given with no value, is named too, not read as absent (the waiting list).
    await refusedNaming(await call('/v1/admin/review?status', { headers: bearer(p.keys.admin) }), 'status');
    // One a form sends empty (`?status=`) is as good as none.
    expect((await call('/v1/admin/review?status=', { headers: bearer(p.keys.admin) })).status).toBe(200);
  });

  it('takes a write key as ?key= where a beacon sends it, and no other parameter beside it', async () => {
    const p = await newProject();
    const { traceId } = trace();
    const post = (query: string, e = event({ traceId })) =>
      call(`/v1/events${query}`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'text/plain' }, body: JSON.stringify({ events: [e] }) });
    expect(await (await post(`?key=${p.keys.write}`)).json()).toMatchObject({ accepted: 1 });
    await refusedNaming(await post(`?key=${p.keys.write}&dryRun=1`), 'dryRun');
    await refusedNaming(await post(`?key=${p.keys.write}&key=${p.keys.write}`), 'key');
    expect((await counts(p.id)).feedback_events).toBe(1);
    // A preflight carrying the key is answered as before.
    const preflight = await call(`/v1/events?key=${p.keys.write}`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);

    const config = (query: string) => call(`/v1/config${query}`, { headers: { origin: ORIGIN } });
    expect((await config(`?key=${p.keys.write}`)).status).toBe(200);
    await refusedNaming(await config(`?key=${p.keys.write}&lang=en`), 'lang');
  });

  it('answers a path no route has 404, whatever its query', async () => {
    const p = await newProject();
    expect((await call('/v1/nowhere?x=1', { headers: bearer(p.keys.admin) })).status).toBe(404);
  });
});
