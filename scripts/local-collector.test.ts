import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startLocalCollector } from './local-collector.ts';

const getConfig = (url: string, key: string, origin?: string) =>
  fetch(`${url}/v1/config`, { headers: { authorization: `Bearer ${key}`, ...(origin && { origin }) } }).then((r) => r.status);

describe('a throwaway local collector', () => {
  it('serves its own migrated D1, project and vars on a free port, and leaves nothing behind', { timeout: 90_000 }, async () => {
    const site = 'http://127.0.0.1:5999';
    const [a, b] = await Promise.all([startLocalCollector({ origins: [site], vars: { RATE_LIMIT_IP_PER_MIN: '2' } }), startLocalCollector()]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.url).toBe(`http://127.0.0.1:${a.port}`);
      expect(existsSync(a.persistTo)).toBe(true);
      expect(await getConfig(b.url, a.keys.write)).toBe(401); // each has a D1 of its own
      // The project's origin is allowed, another is not, and requests past the limit set by --var
      // meet it (a few, since on a busy machine the bucket may have refilled a token meanwhile).
      expect([await getConfig(a.url, a.keys.write, site), await getConfig(a.url, a.keys.write, 'https://elsewhere.example')]).toEqual([200, 403]);
      const after: number[] = [];
      for (let i = 0; i < 4; i++) after.push(await getConfig(a.url, a.keys.write, site));
      expect(after).toContain(429);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    for (const collector of [a, b]) {
      expect(existsSync(collector.persistTo)).toBe(false);
      await expect(fetch(`${collector.url}/v1/health`)).rejects.toThrow();
    }
  });
});
