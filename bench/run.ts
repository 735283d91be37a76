/**
 * `npm run bench`: runs every suite, prints one table and writes bench/results/latest.json.
 * Each row is the median of several runs with min and max; rows with a budget say if they meet it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../scripts/wrangler.ts';
import { startHarness } from './browser-harness.ts';
import { collectorBench } from './collector.ts';
import { consoleBench } from './console.ts';
import { demoBm25Bench } from './demo-bm25.ts';
import { migrationIndexBench } from './migration-index.ts';
import { nightlyBench } from './nightly.ts';
import { nightlySteadyBench } from './nightly-steady.ts';
import { redactBench } from './redact.ts';
import { rerankerBench } from './reranker.ts';
import type { Row } from './stats.ts';
import { widgetOfflineBench } from './widget-offline.ts';
import { widgetPageBench } from './widget-page.ts';
import { widgetSizeBench } from './widget-size.ts';

/** Suites in the browser share one collector, site and Chromium. */
async function widgetInBrowser(): Promise<Row[]> {
  const h = await startHarness();
  try {
    return [...(await widgetPageBench(h)), ...(await widgetOfflineBench(h))];
  } finally {
    await h.close();
  }
}

const suites: Record<string, () => Promise<Row[]>> = {
  collector: collectorBench,
  redact: redactBench,
  'widget-size': widgetSizeBench,
  widget: widgetInBrowser,
  'demo-bm25': demoBm25Bench,
  nightly: nightlyBench,
  'nightly-steady': nightlySteadyBench,
  'migration-index': migrationIndexBench,
  reranker: rerankerBench,
  console: consoleBench,
};

const only = process.argv.slice(2);
const rows: Row[] = [];
for (const [name, suite] of Object.entries(suites)) {
  if (only.length && !only.includes(name)) continue;
  console.error(`running ${name}…`);
  rows.push(...(await suite()));
}

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n >= 10 ? 1 : 3));
console.table(
  rows.map((r) => ({
    suite: r.suite,
    figure: r.name,
    median: `${fmt(r.median)} ${r.unit}`,
    'min … max': `${fmt(r.min)} … ${fmt(r.max)}`,
    runs: r.runs,
    budget: r.budget ? `${r.budget} ${r.ok ? '✓' : '✗ MISSED'}` : '',
  })),
);

const dir = join(ROOT, 'bench', 'results');
mkdirSync(dir, { recursive: true });
const machine = { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version };
writeFileSync(join(dir, 'latest.json'), `${JSON.stringify({ at: new Date().toISOString(), machine, rows }, null, 2)}\n`);
console.error(`written to bench/results/latest.json`);
