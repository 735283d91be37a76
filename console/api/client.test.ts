import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, api, NetworkError, WRITE_TIMEOUT_MS } from './client.ts';

const ok = () => new Response('{"items":[]}', { status: 200, headers: { 'content-type': 'application/json' } });
const timedOut = () => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError'));
const refused = () => Promise.reject(new TypeError('Failed to fetch'));

/** Never answered: fails only when the request's time limit aborts it, as fetch does. */
const unanswered = (init: RequestInit) => new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));

/** fetch answering each call in turn, recording the calls. */
function stubFetch(...answers: ((init: RequestInit) => Response | Promise<Response>)[]) {
  const calls: RequestInit[] = [];
  vi.stubGlobal('fetch', (_path: string, init: RequestInit) => {
    calls.push(init);
    const answer = answers[calls.length - 1];
    if (!answer) throw new Error('fetch called once too often');
    return Promise.resolve(init).then(answer);
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('api', () => {
  it('asks a read the collector left unanswered once more, each try with a time limit', async () => {
    const calls = stubFetch(timedOut, ok);
    expect(await api('/v1/admin/review', { key: 'rfa_k' })).toEqual({ items: [] });
    expect(calls).toHaveLength(2);
    for (const c of calls) expect(c.signal).toBeInstanceOf(AbortSignal);
  });

  it('fails a read unanswered twice as unreachable', async () => {
    stubFetch(timedOut, timedOut);
    await expect(api('/v1/admin/review', { key: 'rfa_k' })).rejects.toBeInstanceOf(NetworkError);
  });

  it('fails at once when the connection is refused, so the page can say so', async () => {
    const calls = stubFetch(refused, ok);
    await expect(api('/v1/admin/review', { key: 'rfa_k' })).rejects.toBeInstanceOf(NetworkError);
    expect(calls).toHaveLength(1);
  });

  it('never sends a write again on its own: it may have been carried out', async () => {
    const calls = stubFetch(timedOut, ok);
    await expect(api('/v1/admin/review/x', { key: 'rfa_k', method: 'POST', json: { verdict: 'relevant' }, timeoutMs: 5_000 })).rejects.toBeInstanceOf(
      NetworkError,
    );
    await expect(api('/v1/admin/models/rollback', { key: 'rfa_k', method: 'POST' })).resolves.toEqual({ items: [] });
    expect(calls).toHaveLength(2);
  });

  it('fails a write left unanswered after its own time limit, as unreachable, without sending it again', async () => {
    const limits: number[] = [];
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    // The limit asked for is recorded; the test waits a millisecond of it, not 15 s.
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      limits.push(ms);
      return timeout(1);
    });
    const calls = stubFetch(unanswered, ok);
    await expect(api('/v1/admin/settings', { key: 'rfa_k', method: 'PUT', json: {} })).rejects.toBeInstanceOf(NetworkError);
    expect(calls).toHaveLength(1);
    expect(limits).toEqual([WRITE_TIMEOUT_MS]);
  });
});

describe('a 400 naming fields', () => {
  const refusal = (error: unknown) => () => new Response(JSON.stringify({ error }), { status: 400, headers: { 'content-type': 'application/json' } });
  const fieldsOf = async () => {
    const err = await api('/v1/admin/settings', { key: 'rfa_k', method: 'PUT', json: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    return (err as ApiRequestError).fields;
  };

  it('reads every field the API lists, leaving out entries that are not a field and its message', async () => {
    const fields = [
      { field: 'retentionDays', message: 'is too low' },
      { field: 'gateMinGain', message: 'is too high' },
    ];
    stubFetch(refusal({ code: 'invalid_settings', ...fields[0], fields: [...fields, { field: 3 }, null] }));
    expect(await fieldsOf()).toEqual(fields);
  });

  it('takes field and message alone as the one field at fault when the API lists none', async () => {
    stubFetch(refusal({ code: 'invalid_settings', message: 'is too low', field: 'retentionDays' }));
    expect(await fieldsOf()).toEqual([{ field: 'retentionDays', message: 'is too low' }]);
    stubFetch(refusal({ code: 'invalid_settings', message: 'is too low' }));
    expect(await fieldsOf()).toEqual([]);
  });
});
