/**
 * `npm run nightly`: runs (or continues) tonight's loop for the running local collector's `dev`
 * project now, through `POST /v1/admin/nightly`, and prints what each stage did.
 *
 *   npm run nightly [-- --endpoint http://127.0.0.1:8787 --admin-key KEY]
 */
import { admin, adminTarget } from './admin-api.ts';
import { failInOneLine, parseFlags } from './cli.ts';
import { nextCommand } from './next-command.ts';

failInOneLine();

/** What POST /v1/admin/nightly answers (collector/jobs/nightly.ts `NightlySummary`). */
interface Summary {
  night: string;
  /** The collector's clock when the call began (absent from collectors before it said so). */
  calledAt?: number;
  done: boolean;
  runs: {
    projectId: string;
    status: string;
    stage: string | null;
    finishedAt: number | null;
    stages: { name: string; slices: number; ms: number; counts: Record<string, number>; note?: string }[];
  }[];
}

const values = parseFlags({ endpoint: { type: 'string' }, 'admin-key': { type: 'string' } }, 'npm run nightly [-- --endpoint URL --admin-key KEY]');
const asked = Date.now();
const target = adminTarget(values);
const summary = await admin<Summary>(target, '/nightly', { method: 'POST' });
for (const run of summary.runs) {
  // A night runs once: asked again, the collector answers with the report of the run that did it.
  // Compared by the collector's clock: this machine's may be minutes off.
  const before = run.finishedAt !== null && run.finishedAt < (summary.calledAt ?? asked);
  const at = before ? new Date(run.finishedAt!).toLocaleTimeString() : '';
  const status = before ? `done earlier, at ${at}: its report` : run.status;
  console.log(`night ${summary.night}, project ${run.projectId}: ${status}${run.stage ? ` (continues at ${run.stage})` : ''}`);
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
  // An earlier run's notes say what was so then (reviews since have not been counted): each says when.
  for (const s of run.stages) if (s.note) console.log(`${s.name}${before ? ` (at ${at})` : ''}: ${s.note}`);
  if (before) console.log(`The next night runs tomorrow (or the cron); \`${nextCommand('retrain', target)}\` trains on what was reviewed since, now.`);
}
if (!summary.done) console.log('Not done within this invocation: run it again to continue.');
