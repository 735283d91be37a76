/**
 * `npm run retrain`: trains a reranker from a collector's confirmed feedback, prints the eval
 * gate's table, and records the model (promoted only if the gate passes). Refuses, saying why,
 * below the project's minimum of confirmed examples, when one source dominates the batch, or when
 * no confirmed example is new since the last model (unless `--force`).
 *
 *   npm run retrain [-- --endpoint URL --admin-key KEY] [--embedding-model Xenova/all-MiniLM-L6-v2]
 *                   [--model-dir DIR] [--fp32] [--dry-run] [--force]
 */
import { createTransformersEmbedder } from '../client/transformers-embedder.ts';
import { adminTarget } from './admin-api.ts';
import { failInOneLine, parseFlags } from './cli.ts';
import { nextCommand } from './next-command.ts';
import { gateTable } from './retrain/gate-table.ts';
import { NOTHING_NEW, retrainRemote } from './retrain/retrain-remote.ts';

failInOneLine();

const values = parseFlags(
  {
    endpoint: { type: 'string' },
    'admin-key': { type: 'string' },
    'embedding-model': { type: 'string' },
    'model-dir': { type: 'string' },
    // The full-precision weights: a corpus-learnt model's int8 table has one scale for all rows.
    fp32: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    // Train even when no confirmed example is new since the last model (the nightly job would wait).
    force: { type: 'boolean', default: false },
  },
  'npm run retrain [-- --endpoint URL --admin-key KEY] [--embedding-model NAME] [--model-dir DIR] [--fp32] [--dry-run] [--force]',
);
const withEmbeddings = values['embedding-model'] !== undefined || values['model-dir'] !== undefined;
// Alone it would change nothing: the model would train on lexical features, as if it had not been given.
if (values.fp32 && !withEmbeddings) throw new Error("--fp32 picks an embedding model's full-precision weights: give --embedding-model or --model-dir too");
const target = adminTarget(values);
const embedder = withEmbeddings
  ? createTransformersEmbedder({ model: values['embedding-model'], localModelPath: values['model-dir'], quantized: !values.fp32 })
  : undefined;
const outcome = await retrainRemote(target, { embedder, dryRun: values['dry-run'], force: values.force, log: (l) => console.log(l) });
/** The same run again (the same collector, key, embedding model and dry run), forced. */
const forced = nextCommand('retrain', target, [
  ...(values['embedding-model'] === undefined ? [] : ['--embedding-model', values['embedding-model']]),
  ...(values['model-dir'] === undefined ? [] : ['--model-dir', values['model-dir']]),
  ...(values.fp32 ? ['--fp32'] : []),
  ...(values['dry-run'] ? ['--dry-run'] : []),
  '--force',
]);
if (!outcome.trained) {
  // Only this refusal can be overridden: the others would train a model the gate cannot trust.
  console.error(`Not trained: ${outcome.reason}.${outcome.reason === NOTHING_NEW ? ` \`${forced}\` trains anyway.` : ''}`);
  process.exit(1);
}
console.log(`Trained ${outcome.model.version} on ${outcome.confirmed} confirmed examples (${JSON.stringify(outcome.model).length} bytes).`);
console.table(gateTable(outcome.evaluation));
const passed = outcome.recorded ? 'Promoted' : 'Passes the gate';
console.log(`${outcome.decision.promote ? passed : 'Rejected'}: ${outcome.decision.reasons.join('; ')}`);
if (outcome.refused !== undefined) {
  // Forced: the model stored meanwhile (a nightly one) may have read the same answers, leaving none new to wait for.
  console.error(`Not recorded, nothing stored: ${outcome.refused}. \`${forced}\` again trains against what is so now.`);
  process.exit(1);
}
if (!outcome.recorded) console.log('Dry run: nothing recorded.');
