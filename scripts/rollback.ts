/**
 * `npm run rollback`: stops serving the current reranker and serves the one before it (or
 * retrieval's order when there is none). Backends using `createReranker` follow within a minute.
 *
 *   npm run rollback [-- --version VERSION --endpoint URL --admin-key KEY --reason "why"]
 *
 * With `--version`, only while that is the model served: a promotion landing meanwhile is not
 * rolled back in its place.
 */
import { AdminApiError, admin, adminTarget } from './admin-api.ts';
import { failInOneLine, parseFlags } from './cli.ts';

failInOneLine();

const values = parseFlags(
  { endpoint: { type: 'string' }, 'admin-key': { type: 'string' }, reason: { type: 'string' }, version: { type: 'string' } },
  'npm run rollback [-- --endpoint URL --admin-key KEY --version VERSION --reason "why"]',
);
try {
  const done = await admin<{ rolledBack: string; current: string | null }>(adminTarget(values), '/models/rollback', {
    method: 'POST',
    json: { reason: values.reason ?? 'npm run rollback', ...(values.version !== undefined && { version: values.version }) },
  });
  console.log(`Rolled back ${done.rolledBack}; users now get ${done.current ?? "retrieval's order (no model)"}.`);
} catch (err) {
  if (!(err instanceof AdminApiError)) throw err;
  if (err.code === 'nothing_to_roll_back') console.error("Nothing to roll back: no model is served, users get retrieval's order already.");
  else if (err.code === 'not_served') console.error(`Nothing rolled back: ${err.detail}`);
  else throw err;
  process.exit(1);
}
