/**
 * `npm run bench`: runs every suite, prints one table and writes bench/results/latest.json.
 * Each row is the median of several runs with min and max; rows with a budget say if they meet it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { failInOneLine, helpAsked } from '../scripts/cli.ts';
import { ROOT } from '../scripts/wrangler.ts';
import { ensureBenchDeps } from './bench-deps.ts';
import type { Row } from './stats.ts';

/** Suites in the browser share one collector, site and Chromium. */
async function widgetInBrowser(): Promise<Row[]> {
  const [{ startHarness }, { widgetPageBench }, { widgetOfflineBench }] = await Promise.all([
    import('./browser-harness.ts'),
    import('./widget-page.ts'),
    import('./widget-offline.ts'),
  ]);
  const h = await startHarness();
  try {
    return [...(await widgetPageBench(h)), ...(await widgetOfflineBench(h))];
  } finally {
    await h.close();
  }
}

/**
 * Each suite is loaded when it runs; those marked `sqlite` open D1 files with a native SQLite
 * (bench/package.json), installed the first time one runs.
 */
const suites: Record<string, { run: () => Promise<Row[]>; sqlite?: true }> = {
  collector: { run: async () => (await import('./collector.ts')).collectorBench(), sqlite: true },
  redact: { run: async () => (await import('./redact.ts')).redactBench() },
  pushback: { run: async () => (await import('./pushback.ts')).pushbackBench() },
  'widget-size': { run: async () => (await import('./widget-size.ts')).widgetSizeBench() },
  widget: { run: widgetInBrowser },
  'demo-bm25': { run: async () => (await import('./demo-bm25.ts')).demoBm25Bench() },
  nightly: { run: async () => (await import('./nightly.ts')).nightlyBench(), sqlite: true },
  'nightly-steady': { run: async () => (await import('./nightly-steady.ts')).nightlySteadyBench(), sqlite: true },
  'migration-index': { run: async () => (await import('./migration-index.ts')).migrationIndexBench(), sqlite: true },
  reranker: { run: async () => (await import('./reranker.ts')).rerankerBench() },
  console: { run: async () => (await import('./console.ts')).consoleBench() },
};

failInOneLine();
const only = process.argv.slice(2);
const usage = `npm run bench [-- <suite>…], suites: ${Object.keys(suites).join(', ')}`;
if (helpAsked(only)) {
  console.log(`usage: ${usage}`);
  process.exit(0);
}
const unknown = only.filter((name) => !Object.hasOwn(suites, name));
if (unknown.length) throw new Error(`no suite ${unknown.map((n) => JSON.stringify(n)).join(', ')}; usage: ${usage}`);
const rows: Row[] = [];
for (const [name, suite] of Object.entries(suites)) {
  if (only.length && !only.includes(name)) continue;
  if (suite.sqlite) ensureBenchDeps();
  console.error(`running ${name}…`);
  rows.push(...(await suite.run()));
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
