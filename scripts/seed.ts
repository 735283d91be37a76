/**
 * `npm run seed`: fills a project (the running local collector's `dev` one unless told) through the HTTP API with
 * realistic traffic over a small built-in corpus (scripts/seed/): multi-turn sessions, rephrases,
 * corrections naming sources, wrong-source flags, mis-clicks, one flooding session and a
 * retrieval regression users flag. Then `npm run nightly` turns it into a review queue, flagged
 * documents, a correction inbox and more; answering the queue and `npm run retrain` promote a
 * model that undoes the regression.
 *
 *   npm run seed [-- --endpoint http://127.0.0.1:8787] [--server-key KEY] [--sessions 80] [--seed 7]
 *
 * The endpoint and key come from the flags, else RF_ENDPOINT / RF_SERVER_KEY, else the dev project.
 *
 * Seeding again with the same `--sessions` and `--seed` sends the same ids, which the collector
 * keeps once; another size or seed adds new traffic.
 */
import { failInOneLine, parseFlags, wholeNumber } from './cli.ts';
import { collectorEndpoint, projectKey } from './collector-target.ts';
import { nextCommand } from './next-command.ts';
import { seed } from './seed/send.ts';

failInOneLine();

const values = parseFlags(
  {
    endpoint: { type: 'string' },
    'server-key': { type: 'string' },
    sessions: { type: 'string', default: '80' },
    seed: { type: 'string', default: '7' },
  },
  'npm run seed [-- --endpoint URL] [--server-key KEY] [--sessions 80] [--seed 7]',
);
// Checked before anything is sent: `--sessions abc` would seed the fixed sessions alone, under ids saying NaN.
const sessions = wholeNumber('--sessions', values.sessions, 1, 100_000);
// The generator takes 32 bits: another seed would repeat one of these.
const randomSeed = wholeNumber('--seed', values.seed, 0, 2 ** 32 - 1);
const endpoint = collectorEndpoint(values.endpoint);
const { key: serverKey, given } = projectKey('server', endpoint, values['server-key']);
const sent = await seed({ endpoint, serverKey, sessions, seed: randomSeed });
const project = given ? 'the project of that server key' : 'the dev project';
const { stored } = sent;
// Seeding again sends the same ids, which the collector keeps once: not counted as traffic added.
const already =
  stored.traces || stored.events
    ? `; ${stored.traces} traces and ${stored.events} events sent were there already (the same --sessions and --seed send the same ids: another of either sends new traffic)`
    : '';
console.log(`Seeded ${sent.traces - stored.traces} traces and ${sent.events - stored.events} events into ${project} at ${endpoint}${already}.
Next: ${nextCommand('nightly', { endpoint, keyGiven: given })}`);
