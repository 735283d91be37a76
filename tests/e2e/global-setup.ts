/**
 * Once for the browser suite: build the widget and the console, start a static host site and a
 * real collector (`wrangler dev`, local D1 in a temporary folder), and give the tests their
 * addresses and keys.
 */
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { CONSOLE_VARS, seededState } from '../../console/e2e/seeded-state.ts';
import { buildConsole } from '../../scripts/build-console.ts';
import { buildWidget } from '../../scripts/build-widget.ts';
import { startLocalCollector } from '../../scripts/local-collector.ts';
import { startStaticServer } from '../static-server.ts';
import { launchShared } from './chromium.ts';
import './provided.ts';

export default async function setup(project: TestProject) {
  await buildWidget({ types: false });
  await buildConsole();
  // Stopped in reverse order, also when a later one fails to start.
  const started: { stop(): Promise<unknown> }[] = [];
  const teardown = async () => {
    for (const s of started.reverse()) await s.stop();
  };
  try {
    // The site's address goes into the project's origins, and the collector's into the CSP page's
    // policy: the site starts first and reads the policy per request.
    let csp = '';
    const site = await startStaticServer((path): Record<string, string> => (path.endsWith('csp.html') ? { 'content-security-policy': csp } : {}));
    started.push({ stop: () => site.close() });
    const stoppable = async <T>(starting: Promise<T>, stop: (t: T) => Promise<unknown>): Promise<T> => {
      const t = await starting;
      started.push({ stop: () => stop(t) });
      return t;
    };
    // Started together, each stopped by the teardown once it has started, whichever fails.
    const [collector, browser, seeded] = await allStarted([
      // The tests poll the admin API from the same address as the browser, as the console's do.
      stoppable(startLocalCollector({ origins: [site.url], vars: CONSOLE_VARS }), (c) => c.stop()),
      stoppable(launchShared(), (b) => b.close()),
      stoppable(seededState(), async (state) => rmSync(state.persistTo, { recursive: true, force: true })),
    ]);
    csp = `default-src 'none'; script-src 'nonce-r4nd0m'; style-src 'nonce-r4nd0m'; connect-src ${collector.url}; img-src 'none'`;
    project.provide('collector', collector.url);
    project.provide('site', site.url);
    project.provide('keys', collector.keys);
    project.provide('browserEndpoint', browser.wsEndpoint());
    project.provide('seededCollector', seeded);
    return teardown;
  } catch (err) {
    await teardown();
    throw err;
  }
}

/** Waits for every start, so that none is left running unstopped when another fails; then throws the first failure. */
async function allStarted<T extends readonly unknown[]>(starts: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(starts);
  for (const r of settled) if (r.status === 'rejected') throw r.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
