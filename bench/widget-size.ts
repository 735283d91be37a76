/**
 * Widget size: minified, gzip and brotli for the first load (the entry and the chunks it imports
 * statically) and for the full widget (every chunk, and the single-file script), with each
 * dependency's share of the full widget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isStatic, reached } from '../scripts/build-imports.ts';
import { buildWidget, WIDGET_DIST } from '../scripts/build-widget.ts';
import { type Row, row } from './stats.ts';

const gzip = (b: Buffer) => gzipSync(b, { level: 9 }).length;
const brotli = (b: Buffer) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** Sizes of a set of files, each compressed on its own as a server would send it. */
function sizes(files: string[]) {
  const bufs = files.map((f) => readFileSync(f));
  return { min: bufs.reduce((s, b) => s + b.length, 0), gzip: bufs.reduce((s, b) => s + gzip(b), 0), brotli: bufs.reduce((s, b) => s + brotli(b), 0) };
}

/** "lit-html", "@lit/reactive-element", or "rag-feedback" for our own code. */
const packageOf = (input: string) => {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return m ? m[1]! : 'rag-feedback (widget + shared)';
};

export async function widgetSizeBench(): Promise<Row[]> {
  const { esm, iife } = await buildWidget({ types: false });
  const outputs = Object.keys(esm.outputs).filter((f) => f.endsWith('.js'));
  const entry = outputs.find((f) => f.endsWith('rag-feedback.js'))!;
  const first = sizes([...reached(esm, [entry], isStatic).files]);
  const full = sizes(outputs);
  const single = sizes([join(WIDGET_DIST, 'rag-feedback.iife.js')]);
  const kb = (n: number) => n / 1024;
  const rows = [
    row('widget-size', 'first load (ES module + static chunks), minified', 'KB', [kb(first.min)]),
    row('widget-size', 'first load, gzip', 'KB', [kb(first.gzip)]),
    row('widget-size', 'first load, brotli', 'KB', [kb(first.brotli)], '<= 12'),
    row('widget-size', 'full widget (all chunks), minified', 'KB', [kb(full.min)]),
    row('widget-size', 'full widget (all chunks), gzip', 'KB', [kb(full.gzip)]),
    row('widget-size', 'full widget (all chunks), brotli', 'KB', [kb(full.brotli)], '<= 20'),
    row('widget-size', 'single-file script, gzip', 'KB', [kb(single.gzip)]),
    row('widget-size', 'single-file script, brotli', 'KB', [kb(single.brotli)], '<= 20'),
  ];
  // Each dependency's share of the full widget, by minified bytes in the single-file script.
  const shares = new Map<string, number>();
  const [output] = Object.values(iife.outputs).filter((o) => o.entryPoint);
  for (const [input, { bytesInOutput }] of Object.entries(output!.inputs)) shares.set(packageOf(input), (shares.get(packageOf(input)) ?? 0) + bytesInOutput);
  const total = [...shares.values()].reduce((a, b) => a + b, 0);
  for (const [pkg, bytes] of [...shares].sort((a, b) => b[1] - a[1])) {
    rows.push(row('widget-size', `share of the full widget: ${pkg}`, '%', [(100 * bytes) / total]));
  }
  return rows;
}
