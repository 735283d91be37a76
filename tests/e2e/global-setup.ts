/**
 * Once for the browser suite: build the widget, start a real collector (`wrangler dev`, local D1
 * in a temporary folder) and a static host site, and give the tests their addresses and keys.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { provisionProject } from '../../collector/auth/provision.ts';
import { buildWidget } from '../../scripts/build-widget.ts';
import { migrate, query, startDev } from '../../scripts/wrangler.ts';
import { startStaticServer } from '../static-server.ts';

export const COLLECTOR_PORT = 8788;
export const SITE_PORT = 8790;

declare module 'vitest' {
  export interface ProvidedContext {
    collector: string;
    site: string;
    keys: { write: string; server: string; admin: string };
  }
}

export default async function setup(project: TestProject) {
  await buildWidget({ types: false });
  const persistTo = mkdtempSync(join(tmpdir(), 'rf-browser-'));
  migrate({ persistTo }, { quiet: true });
  const site = `http://127.0.0.1:${SITE_PORT}`;
  const p = await provisionProject({ id: 'browser', name: 'browser tests', origins: [site] });
  query(p.statements.join('\n'), { persistTo });
  // The tests poll the admin API from the same address as the browser: lift the per-IP limit.
  const collector = await startDev({ port: COLLECTOR_PORT, persistTo, logLevel: 'warn', vars: { RATE_LIMIT_IP_PER_MIN: '100000' } });
  const csp = `default-src 'none'; script-src 'nonce-r4nd0m'; style-src 'nonce-r4nd0m'; connect-src ${collector.url}; img-src 'none'`;
  const server = await startStaticServer(SITE_PORT, (path): Record<string, string> => (path.endsWith('csp.html') ? { 'content-security-policy': csp } : {}));
  project.provide('collector', collector.url);
  project.provide('site', server.url);
  project.provide('keys', p.keys);
  return async () => {
    await server.close();
    await collector.stop();
  };
}
