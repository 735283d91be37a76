import { afterEach, describe, expect, it, vi } from 'vitest';

const SETTINGS = ['BENCH_NIGHTLY_SCALE', 'BENCH_NIGHTLY_CAP_S', 'BENCH_NIGHTLY_FLOOR_CAP_S', 'BENCH_NIGHTLY_LIVE_HEAP_MS'];

/** The settings as options.ts reads them with these set and the others unset. */
const settingsWith = async (env: Record<string, string>) => {
  for (const name of SETTINGS) vi.stubEnv(name, env[name]);
  vi.resetModules();
  return import('./options.ts');
};

describe('the nightly benchmarks’ settings', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('take plain numbers, and their defaults when unset (the floor’s cap the job’s)', async () => {
    const set = await settingsWith({ BENCH_NIGHTLY_SCALE: '0.1', BENCH_NIGHTLY_CAP_S: '1500', BENCH_NIGHTLY_LIVE_HEAP_MS: '2000' });
    expect([set.SCALE, set.CAP_MS, set.FLOOR_CAP_MS, set.LIVE_HEAP_MS]).toEqual([0.1, 1_500_000, 1_500_000, 2000]);
    const unset = await settingsWith({});
    expect([unset.SCALE, unset.CAP_MS, unset.FLOOR_CAP_MS, unset.LIVE_HEAP_MS]).toEqual([1, 600_000, 600_000, undefined]);
  });

  it('refuse what Number() would take leniently, naming the variable', async () => {
    for (const given of ['1e3', '0x10', ' 5', '', '5s'])
      await expect(settingsWith({ BENCH_NIGHTLY_CAP_S: given })).rejects.toThrow(/^BENCH_NIGHTLY_CAP_S must be a whole number of seconds/);
    await expect(settingsWith({ BENCH_NIGHTLY_FLOOR_CAP_S: '1e3' })).rejects.toThrow(/^BENCH_NIGHTLY_FLOOR_CAP_S must be/);
    await expect(settingsWith({ BENCH_NIGHTLY_SCALE: '2' })).rejects.toThrow(/^BENCH_NIGHTLY_SCALE .* from 0.001 to 1/);
  });
});
