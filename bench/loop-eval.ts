/**
 * `npm run loop:eval`: simulated users drive the real loop (collector under wrangler dev, the
 * demo's backend, the nightly job, review, training and the gate) over a BEIR collection's train
 * queries for K simulated weeks; prints a table per week and writes the report as JSON.
 * Flags: `npm run loop:eval -- --help`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { failInOneLine, helpAsked } from '../scripts/cli.ts';
import { LOOP_EVAL_HELP, paramsFromArgs } from './loop-eval/params.ts';
import { printReport } from './loop-eval/report.ts';
import { runLoopEval } from './loop-eval/run.ts';

failInOneLine();
const args = process.argv.slice(2);
if (helpAsked(args)) {
  console.log(LOOP_EVAL_HELP);
  process.exit(0);
}
const params = paramsFromArgs(args);
console.log(`loop:eval ${JSON.stringify(params)}`);
const report = await runLoopEval(params, params.quiet ? () => {} : (line) => console.log(line));
printReport(report);
const out = resolve(params.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(`report written to ${out}`);
