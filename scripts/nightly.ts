/**
 * `npm run nightly`: runs (or continues) tonight's loop for the running local collector's `dev`
 * project now, through `POST /v1/admin/nightly`, and prints what each stage did.
 *
 *   npm run nightly [-- --endpoint http://127.0.0.1:8787 --admin-key KEY]
 */
import { admin, adminTarget } from './admin-api.ts';
import { failInOneLine, parseFlags } from './cli.ts';
import { nextCommand } from './next-command.ts';
import { type NightlySummary, nightlyReport } from './nightly-report.ts';

failInOneLine();

const values = parseFlags({ endpoint: { type: 'string' }, 'admin-key': { type: 'string' } }, 'npm run nightly [-- --endpoint URL --admin-key KEY]');
const asked = Date.now();
const target = adminTarget(values);
const summary = await admin<NightlySummary>(target, '/nightly', { method: 'POST' });
for (const part of nightlyReport(summary, asked, nextCommand('retrain', target))) {
  if (typeof part === 'string') console.log(part);
  else console.table(part);
}
