/**
 * The page's files: its HTML and CSS as written, its script bundled from demo/web/app.ts by
 * esbuild (as the widget is), and the widget's build, made on first use if dist/widget/ has none.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from '../../scripts/wrangler.ts';
import type { PageAssets } from './app.ts';

const WEB = join(ROOT, 'demo', 'web');
export const WIDGET_DIR = join(ROOT, 'dist', 'widget');

/** The widget's ES module, built (without types, which the page does not need) if missing. */
async function ensureWidget(): Promise<void> {
  if (existsSync(join(WIDGET_DIR, 'rag-feedback.js'))) return;
  const { buildWidget } = await import('../../scripts/build-widget.ts');
  await buildWidget({ types: false });
}

export async function loadPageAssets(): Promise<PageAssets> {
  const [html, style, bundle] = await Promise.all([
    readFile(join(WEB, 'index.html'), 'utf8'),
    readFile(join(WEB, 'style.css'), 'utf8'),
    build({ entryPoints: [join(WEB, 'app.ts')], bundle: true, format: 'esm', target: 'es2022', write: false, logLevel: 'warning' }),
    ensureWidget(),
  ]);
  return { html, style, script: bundle.outputFiles[0]!.text, widgetDir: WIDGET_DIR };
}
