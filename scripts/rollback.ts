/**
 * `npm run rollback`: stops serving the current reranker and serves the one before it (or
 * retrieval's order when there is none). Backends using `createReranker` follow within a minute.
 *
 *   npm run rollback [-- --endpoint URL --admin-key KEY --reason "why"]
 */
import { parseArgs } from 'node:util';
import { AdminApiError, admin, adminTarget } from './admin-api.ts';
import { failInOneLine } from './cli.ts';

failInOneLine();

const { values } = parseArgs({ options: { endpoint: { type: 'string' }, 'admin-key': { type: 'string' }, reason: { type: 'string' } } });
try {
  const done = await admin<{ rolledBack: string; current: string | null }>(adminTarget(values), '/models/rollback', {
    method: 'POST',
    json: { reason: values.reason ?? 'npm run rollback' },
  });
  console.log(`Rolled back ${done.rolledBack}; users now get ${done.current ?? "retrieval's order (no model)"}.`);
} catch (err) {
  if (!(err instanceof AdminApiError && err.code === 'nothing_to_roll_back')) throw err;
  console.error("Nothing to roll back: no model is served, users get retrieval's order already.");
  process.exit(1);
}
