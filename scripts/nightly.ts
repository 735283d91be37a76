/**
 * `npm run nightly`: runs (or continues) tonight's loop for the running local collector's `dev`
 * project now, through `POST /v1/admin/nightly`, and prints what each stage did.
 *
 *   npm run nightly [-- --endpoint http://127.0.0.1:8787 --admin-key KEY]
 */
import { parseArgs } from 'node:util';
import { admin, adminTarget } from './admin-api.ts';

/** What POST /v1/admin/nightly answers (collector/jobs/nightly.ts `NightlySummary`). */
interface Summary {
  night: string;
  done: boolean;
  runs: { projectId: string; status: string; stage: string | null; stages: { name: string; slices: number; ms: number; counts: Record<string, number> }[] }[];
}

const { values } = parseArgs({ options: { endpoint: { type: 'string' }, 'admin-key': { type: 'string' } } });
const summary = await admin<Summary>(adminTarget(values), '/nightly', { method: 'POST' });
for (const run of summary.runs) {
  console.log(`night ${summary.night}, project ${run.projectId}: ${run.status}${run.stage ? ` (continues at ${run.stage})` : ''}`);
  console.table(
    run.stages.map((s) => ({
      stage: s.name,
      slices: s.slices,
      ms: s.ms,
      counts: Object.entries(s.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    })),
  );
}
if (!summary.done) console.log('Not done within this invocation: run it again to continue.');
