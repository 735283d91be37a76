import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusedOrigin } from './widget-origin.ts';

/** A stand-in collector that allows the widget from port 5173 and from 15173 only, as a dev project after `DEMO_PORT=15173 npm start`. */
const asked: { origin?: string; auth?: string }[] = [];
const collector = createServer((req, res) => {
  asked.push({ origin: req.headers.origin, auth: req.headers.authorization });
  const allowed = ['http://127.0.0.1:5173', 'http://127.0.0.1:15173'].includes(req.headers.origin ?? '');
  res.writeHead(allowed ? 200 : 403, { 'content-type': 'application/json' });
  res.end(JSON.stringify(allowed ? { prompts: [] } : { error: { code: 'origin_not_allowed', message: 'not allowed', field: 'origin' } }));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => collector.close(() => r())));

describe('refusedOrigin', () => {
  it('says nothing for a port the dev project allows, the default or one npm start was given', async () => {
    expect(await refusedOrigin(url, 'rfw_dev', 'http://127.0.0.1:5173')).toBeUndefined();
    expect(await refusedOrigin(url, 'rfw_dev', 'http://127.0.0.1:15173')).toBeUndefined();
    expect(asked.at(-1)).toEqual({ origin: 'http://127.0.0.1:15173', auth: 'Bearer rfw_dev' });
  });

  it('warns, naming the origin and how to allow it, for a port it does not allow', async () => {
    expect(await refusedOrigin(url, 'rfw_dev', 'http://127.0.0.1:25173')).toBe(
      "the dev project does not allow http://127.0.0.1:25173, so the widget's events from it are refused (`npm run keys -- origins dev --add http://127.0.0.1:25173` allows it within a minute)",
    );
  });

  it('says nothing when no collector answers', async () => {
    expect(await refusedOrigin('http://127.0.0.1:9', 'rfw_dev', 'http://127.0.0.1:25173')).toBeUndefined();
  });
});
