import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError, NetworkError } from './client.ts';
import { RETRY_DELAYS_MS, retryingTransient } from './retry.ts';

const noWait = vi.fn(async (_ms: number) => {});

/** A request failing with each of `failures` in turn, then answering 'done'. */
function failingWith(...failures: Error[]) {
  return vi.fn(async () => {
    const failure = failures.shift();
    if (failure) throw failure;
    return 'done';
  });
}

describe('retryingTransient', () => {
  it('sends again after a 503 or a lost connection, waiting longer each time', async () => {
    noWait.mockClear();
    const request = failingWith(new ApiRequestError(503, 'http_error', 'Service Unavailable'), new NetworkError('network'));
    await expect(retryingTransient(request, RETRY_DELAYS_MS, noWait)).resolves.toBe('done');
    expect(request).toHaveBeenCalledTimes(3);
    expect(noWait.mock.calls.map(([ms]) => ms)).toEqual(RETRY_DELAYS_MS.slice(0, 2));
  });

  it('does not send again what the server refused (4xx) or failed at (500)', async () => {
    for (const refusal of [
      new ApiRequestError(400, 'invalid_answer', 'verdict'),
      new ApiRequestError(404, 'not_found', 'no item'),
      new ApiRequestError(500, 'internal', 'boom'),
    ]) {
      const request = failingWith(refusal);
      await expect(retryingTransient(request, RETRY_DELAYS_MS, noWait)).rejects.toBe(refusal);
      expect(request).toHaveBeenCalledTimes(1);
    }
  });

  it('gives up with the last failure once every wait is used', async () => {
    const failures = [502, 503, 504, 503].map((status) => new ApiRequestError(status, 'http_error', String(status)));
    const last = failures.at(-1);
    const request = failingWith(...failures);
    await expect(retryingTransient(request, RETRY_DELAYS_MS, noWait)).rejects.toBe(last);
    expect(request).toHaveBeenCalledTimes(RETRY_DELAYS_MS.length + 1);
  });
});
