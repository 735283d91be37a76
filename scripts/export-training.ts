/**
 * `npm run export:training`: the collector's confirmed (query, positive, hard negative) triples as
 * JSONL on stdout (or `--out FILE`), for fine-tuning a cross-encoder with sentence-transformers.
 *
 *   npm run export:training [-- --endpoint URL --admin-key KEY --out triples.jsonl]
 */
import { trainingTriples } from '../shared/training/triples.ts';
import { admin, adminTarget } from './admin-api.ts';
import { failInOneLine, parseFlags } from './cli.ts';
import type { TrainingPayload } from './retrain/retrain-remote.ts';
import { writeFileWhole } from './write-file-whole.ts';

failInOneLine();

const values = parseFlags(
  { endpoint: { type: 'string' }, 'admin-key': { type: 'string' }, out: { type: 'string' } },
  'npm run export:training [-- --endpoint URL --admin-key KEY --out triples.jsonl]',
);
const { data } = await admin<TrainingPayload>(adminTarget(values), '/training-data');
const jsonl = trainingTriples(data)
  .map((t) => JSON.stringify(t))
  .join('\n');
if (values.out) {
  // Whole or not at all: a fine-tuning job must not read half of an export as all of it.
  writeFileWhole(values.out, jsonl ? `${jsonl}\n` : '');
  console.error(`${jsonl ? jsonl.split('\n').length : 0} triples written to ${values.out}`);
} else if (jsonl) console.log(jsonl);
