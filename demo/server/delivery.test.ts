import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StandInCollector, standInCollector } from './collector-stand-in.fixture.ts';
import { type Demo, startDemo } from './index.ts';

let collector: StandInCollector;
let demo: Demo;

beforeEach(async () => {
  collector = await standInCollector();
  demo = await startDemo({ port: 0, collectorUrl: collector.url, serverKey: 'rfs_test', writeKey: 'rfw_test', log: () => {}, closeTimeoutMs: 1_000 });
  // The first start indexes the corpus, which on a busy machine outlasts a hook's 10 s.
}, 30_000);

afterEach(async () => {
  await demo.close();
  await collector.down();
});

const ask = (query = 'How do I deploy to Cloudflare?') =>
  fetch(`${demo.url}/api/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId: 's-1', query, turnIndex: 0 }),
  }).then((r) => r.json());

const problem = async () => ((await (await fetch(`${demo.url}/api/delivery`)).json()) as { problem: string | null }).problem;

/** A problem is told at the first attempt that fails, well before the client's retries are spent (8 s at the least). */
const soon = { timeout: 5_000, interval: 100 };
/** A trace is taken again at a retry, a few seconds after the collector is back. */
const poll = { timeout: 15_000, interval: 100 };

describe('whether feedback reaches the collector, as the page asks it', () => {
  it('says nothing is wrong while the collector takes the traces', async () => {
    expect(await problem()).toBeNull();
    await ask();
    await expect.poll(() => collector.taken, poll).toBe(1);
    expect(await problem()).toBeNull();
  });

  it('says the collector does not answer while it is down, naming it and what to check, and nothing once it is back', async () => {
    await collector.down();
    await ask();
    await expect
      .poll(problem, soon)
      .toBe(
        `Feedback is not reaching the collector at ${collector.url}: it does not answer. Check that it is running (npm start) and that the demo is given its address (COLLECTOR_URL).`,
      );
    await collector.up();
    // Its health says it is back; the trace queued while it was down is sent again, and taken once.
    await expect.poll(problem, poll).toBeNull();
    await expect.poll(() => collector.taken, poll).toBe(1);
  });

  it('takes the notice away once a collector that did not answer is back, though every retry of the trace was spent, sending nothing again', async () => {
    const said: string[] = [];
    const watching = await startDemo({ port: 0, collectorUrl: collector.url, serverKey: 'rfs_test', writeKey: 'rfw_test', log: (m) => said.push(m) });
    const problemThere = async () => ((await (await fetch(`${watching.url}/api/delivery`)).json()) as { problem: string | null }).problem;
    try {
      await collector.down();
      await fetch(`${watching.url}/api/ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: 's-1', query: 'How do I deploy to Cloudflare?', turnIndex: 0 }),
      });
      await expect.poll(problemThere, soon).toMatch(/: it does not answer\./);
      // Six attempts, some 8 to 16 s.
      await expect.poll(() => said.some((m) => m.includes('not stored')), { timeout: 25_000, interval: 200 }).toBe(true);
      expect(await problemThere()).toMatch(/: it does not answer\./);
      await collector.up();
      await expect.poll(problemThere, poll).toBeNull();
      expect(collector.taken).toBe(0);
    } finally {
      await watching.close();
    }
  }, 60_000);

  it.each([401, 403] as const)("says the collector refuses the demo's key (%i), in its own words", async (status) => {
    collector.refuseWith = status;
    await ask();
    const said = status === 401 ? 'The key is unknown or revoked' : 'This endpoint needs a server key, not a write key';
    await expect
      .poll(problem, soon)
      .toBe(
        `Feedback is not reaching the collector at ${collector.url}: it refuses the demo's key (HTTP ${status}: ${said}). Check that the demo has this collector's keys (.dev-keys.json, written by npm start).`,
      );
  });

  it('says the collector fails (5xx) at its first failed attempt, and nothing once a retry is taken', async () => {
    collector.refuseWith = 503;
    await ask();
    await expect.poll(problem, soon).toBe(`Feedback is not reaching the collector at ${collector.url}: it fails (HTTP 503). Check its log.`);
    collector.refuseWith = null;
    await expect.poll(problem, poll).toBeNull();
    expect(collector.taken).toBe(1);
  });

  it('keeps what a newer attempt found wrong when an older one, on its way meanwhile, is answered afterwards', async () => {
    // The first trace is taken, but its answer comes late; the second, sent meanwhile, is refused with a 503.
    collector.delayMs = 2_000;
    await ask();
    await expect.poll(() => collector.taken, poll).toBe(1);
    collector.delayMs = 0;
    collector.refuseWith = 503;
    await ask('What does the widget send?');
    const failing = `Feedback is not reaching the collector at ${collector.url}: it fails (HTTP 503). Check its log.`;
    await expect.poll(problem, soon).toBe(failing);
    // The first trace's answer comes meanwhile: it began before the 503, so it says nothing of the collector now
    // (not even until the second's next retry fails again).
    const said = new Set<string | null>();
    for (const until = Date.now() + 2_500; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) said.add(await problem());
    expect([...said]).toEqual([failing]);
    collector.refuseWith = null;
    await expect.poll(problem, poll).toBeNull();
    expect(collector.taken).toBe(2);
  });

  it('says why the client gave a trace up when no attempt failed as the collector down, refusing or failing would (a 404)', async () => {
    collector.refuseWith = 404;
    await ask();
    await expect
      .poll(problem, soon)
      .toBe(
        `Feedback is not reaching the collector at ${collector.url}: HTTP 404: No route for POST /v1/traces. Check its address (COLLECTOR_URL) and its log.`,
      );
  });

  it("says the collector refuses the widget's events from the page's origin, naming it and how to allow it, and nothing once it allows it", async () => {
    const { origin } = new URL(demo.url);
    collector.allowedOrigins = ['http://127.0.0.1:5173'];
    await expect
      .poll(problem, poll)
      .toBe(
        `Feedback is not reaching the collector at ${collector.url}: the dev project does not allow ${origin}, so the widget's events from it are refused (\`npm run keys -- origins dev --add ${origin}\` allows it within a minute).`,
      );
    collector.allowedOrigins.push(origin);
    await expect.poll(problem, poll).toBeNull();
  });

  it("says both while the collector fails and refuses the page's origin, and the origin alone at once when it takes traces again", async () => {
    const { origin } = new URL(demo.url);
    collector.allowedOrigins = ['http://127.0.0.1:5173'];
    collector.refuseWith = 503;
    await ask();
    const refused = `the dev project does not allow ${origin}, so the widget's events from it are refused (\`npm run keys -- origins dev --add ${origin}\` allows it within a minute).`;
    await expect.poll(problem, poll).toBe(`Feedback is not reaching the collector at ${collector.url}: it fails (HTTP 503). Check its log. Also, ${refused}`);
    collector.refuseWith = null;
    await expect.poll(() => collector.taken, poll).toBe(1);
    // The collector counts the trace before the demo reads its answer: asked until the 503 is
    // forgotten, and known already, no moment without a notice while the origin is refused.
    const said: (string | null)[] = [];
    const sayingNow = async () => {
      said.push(await problem());
      return said.at(-1);
    };
    await expect.poll(sayingNow, poll).toBe(`Feedback is not reaching the collector at ${collector.url}: ${refused}`);
    expect(said).not.toContain(null);
  });

  it("keeps saying the collector refuses the page's origin while it is down, as a collector that does not answer tells nothing of origins", async () => {
    const { origin } = new URL(demo.url);
    collector.allowedOrigins = ['http://127.0.0.1:5173'];
    const refused = `the dev project does not allow ${origin}, so the widget's events from it are refused (\`npm run keys -- origins dev --add ${origin}\` allows it within a minute).`;
    await expect.poll(problem, poll).toBe(`Feedback is not reaching the collector at ${collector.url}: ${refused}`);
    await collector.down();
    await ask();
    const both = `Feedback is not reaching the collector at ${collector.url}: it does not answer. Check that it is running (npm start) and that the demo is given its address (COLLECTOR_URL). Also, ${refused}`;
    await expect.poll(problem, soon).toBe(both);
    // Past the time the origin is asked again: asked, the collector down, it is still said.
    await new Promise((r) => setTimeout(r, 5_500));
    await problem();
    await new Promise((r) => setTimeout(r, 500));
    expect(await problem()).toBe(both);
  });

  it('says nothing without a collector, where the page says so from its settings', async () => {
    const alone = await startDemo({ port: 0, log: () => {} });
    try {
      expect(await (await fetch(`${alone.url}/api/delivery`)).json()).toEqual({ problem: null });
    } finally {
      await alone.close();
    }
  });
});
