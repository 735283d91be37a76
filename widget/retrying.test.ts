import { describe, expect, it, vi } from 'vitest';
import { retrying } from './retrying.ts';

describe('retrying', () => {
  it('loads once for every caller, and keeps the value at hand', async () => {
    const load = vi.fn(async () => 'chunk');
    const loader = retrying(load);
    expect(loader.value).toBeUndefined();
    expect(await Promise.all([loader(), loader()])).toEqual(['chunk', 'chunk']);
    expect(await loader()).toBe('chunk');
    expect(load).toHaveBeenCalledTimes(1);
    expect(loader.value).toBe('chunk');
  });

  it('tries again after a failed load, instead of failing for good', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('chunk');
    const loader = retrying<string>(load);
    await expect(loader()).rejects.toThrow('offline');
    expect(loader.value).toBeUndefined();
    expect(await loader()).toBe('chunk');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
