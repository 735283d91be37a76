/**
 * `npm run demo`: the demo chat app on its own, beside a collector started with `npm start`
 * (whose dev keys it reads from .dev-keys.json).
 *   DEMO_PORT       page port (default 5173, the origin the dev project allows)
 *   DEMO_CORPUS     a BEIR directory, e.g. ../shared/data/scifact (default: the product's docs)
 *   COLLECTOR_URL   the collector (default http://127.0.0.1:$PORT, PORT defaulting to 8787)
 *   DEMO_LLM_BASE_URL, DEMO_LLM_MODEL, DEMO_LLM_API_KEY   an OpenAI-compatible endpoint for real generation
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failInOneLine, parseFlags, wholeNumber } from '../scripts/cli.ts';
import { localCollectorPort } from '../scripts/collector-target.ts';
import type { DevKeys } from '../scripts/dev-project.ts';
import { ROOT } from '../scripts/wrangler.ts';
import { corpusFromEnv } from './corpus/index.ts';
import { DEMO_PORT, startDemo } from './server/index.ts';
import { refusedOrigin } from './server/widget-origin.ts';

// A DEMO_CORPUS that does not exist, a port taken: one line saying so, as `npm start` says it, not a stack.
failInOneLine();
// Its settings are environment variables: --help, or a flag, would otherwise start it.
parseFlags({}, 'npm run demo (settings in the environment: DEMO_PORT, DEMO_CORPUS, COLLECTOR_URL, DEMO_LLM_*; see README)');

const keysFile = join(ROOT, '.dev-keys.json');
const keys = existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, 'utf8')) as Partial<DevKeys>) : {};
if (!keys.server) console.log('demo: no .dev-keys.json yet: run `npm start` once to make the dev project and its keys');
const collectorUrl = process.env.COLLECTOR_URL ?? `http://127.0.0.1:${localCollectorPort()}`;
// 0 takes a free port; `Number()` would take `abc` as NaN, which the server refuses with a stack.
const port = wholeNumber('DEMO_PORT', process.env.DEMO_PORT ?? String(DEMO_PORT), 0, 65_535);

const demo = await startDemo({ port, collectorUrl, serverKey: keys.server, writeKey: keys.write, corpus: corpusFromEnv() });
console.log(`demo chat on ${demo.url}  (traces to ${collectorUrl}, console ${collectorUrl}/admin)`);
const refused = keys.write ? await refusedOrigin(collectorUrl, keys.write, demo.url) : undefined;
if (refused) console.log(`demo: ${refused}`);
let stopping = false;
const shutdown = () => {
  // Closing waits for answers on their way (a slow model) and for queued traces (a collector that
  // is down is retried for a while): a second Ctrl-C stops at once rather than going unheard.
  if (stopping) process.exit(130);
  stopping = true;
  console.log('demo: stopping once the answers on their way are sent and queued traces delivered (Ctrl-C again to stop now)');
  void demo.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
