/**
 * The console's weight in the browser, brotli, as the Worker's static assets send it: the first
 * load (the page, its stylesheet, the frame, the review queue, which /admin opens, and the words
 * of one language, the larger's), the same with the loop health page's charts, and the charting
 * library's share of that.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { buildConsole, CONSOLE_DIST } from '../scripts/build-console.ts';
import { isStatic, reached } from '../scripts/build-imports.ts';
import { ROOT } from '../scripts/wrangler.ts';
import { type Row, row } from './stats.ts';

const brotli = (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (n: number) => n / 1024;

/** The output built for a source entry (the console's main or a page's dynamic import). */
function outputOf(meta: Metafile, source: string): string {
  const found = Object.entries(meta.outputs).find(([file, o]) => file.endsWith('.js') && o.entryPoint === source);
  if (!found) throw new Error(`no output for ${source}`);
  return found[0];
}

const brotliOf = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + brotli(readFileSync(join(ROOT, f))), 0);

export async function consoleSizeBench(): Promise<Row[]> {
  const meta = await buildConsole();
  const entry = outputOf(meta, 'console/main.ts');
  const page = (name: string) => outputOf(meta, `console/pages/${name}/${name}-page.ts`);
  const shell = ['index.html', 'console.css'].map((f) => relative(ROOT, join(CONSOLE_DIST, f)));
  // A reader fetches one language's words: the figures count the larger.
  const words = Math.max(...['en', 'zh-CN'].map((l) => brotliOf([outputOf(meta, `console/i18n/${l}.ts`)])));
  // What loading each fetches: the entry and the page, with every chunk they import statically.
  const review = reached(meta, [entry, page('review')], isStatic).files;
  const withCharts = reached(meta, [entry, page('review'), page('health')], isStatic).files;
  const first = brotliOf(shell) + brotliOf(review) + words;
  const charts = first + brotliOf([...withCharts].filter((f) => !review.has(f)));
  // uPlot's part of the chunks the health page adds, by minified bytes, applied to their brotli size.
  let uplot = 0;
  let added = 0;
  for (const f of withCharts) {
    if (review.has(f)) continue;
    for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[f]!.inputs)) {
      added += bytesInOutput;
      if (input.includes('node_modules/uplot/')) uplot += bytesInOutput;
    }
  }
  const chartsKb = kb(charts - first);
  return [
    row('console', 'first load (page, css, frame, review queue, one language), brotli', 'KB', [kb(first)], '<= 60'),
    row('console', 'with the loop health charts, brotli', 'KB', [kb(charts)], '<= 60'),
    row('console', 'charting library (uPlot) share of that, brotli', 'KB', [(chartsKb * uplot) / Math.max(added, 1)]),
  ];
}
