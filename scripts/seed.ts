/**
 * `npm run seed`: fills the running local collector's `dev` project through the HTTP API with
 * realistic traffic over a small built-in corpus (scripts/seed/): multi-turn sessions, rephrases,
 * corrections naming sources, wrong-source flags, mis-clicks, one flooding session and a
 * retrieval regression users flag. Then `npm run nightly` turns it into a review queue, flagged
 * documents, a correction inbox and more; answering the queue and `npm run retrain` promote a
 * model that undoes the regression.
 *
 *   npm run seed [-- --endpoint http://127.0.0.1:8787] [--sessions 80] [--seed 7]
 *
 * Seeding again with the same `--sessions` and `--seed` sends the same ids, which the collector
 * keeps once; another size or seed adds new traffic.
 */
import { parseArgs } from 'node:util';
import { failInOneLine } from './cli.ts';
import { readDevKeys } from './dev-project.ts';
import { seed } from './seed/send.ts';

failInOneLine();

const { values } = parseArgs({
  options: {
    endpoint: { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? 8787}` },
    sessions: { type: 'string', default: '80' },
    seed: { type: 'string', default: '7' },
  },
});
const keys = readDevKeys();
const sent = await seed({ endpoint: values.endpoint, keys, sessions: Number(values.sessions), seed: Number(values.seed) });
console.log(`Seeded ${sent.traces} traces and ${sent.events} events into the dev project at ${values.endpoint}.
Next: npm run nightly   (or: curl -X POST ${values.endpoint}/v1/admin/nightly -H 'authorization: Bearer ${keys.admin}')`);
