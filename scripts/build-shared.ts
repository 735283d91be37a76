/**
 * The steps the widget's and the console's builds take alike: the browsers they are built for,
 * private member names shortened (esbuild's mangleProps) for the bundle's own source files, and
 * Oxc's minifier last.
 */
import { resolve } from 'node:path';
import type { Metafile } from 'esbuild';
import { minifySync } from 'rolldown/utils';
import { nameSource } from './private-names.ts';

/** The JavaScript both bundles are written in, for esbuild and for Oxc alike. */
export const TARGET = 'es2022';

/**
 * Oxc's minifier (Rolldown's) has the last word on every file: esbuild bundles and minifies first,
 * since only it shortens private members and the templates' text, but Oxc's output of the same
 * code compresses smaller (the widget's ES module ~0.2 KB brotli, its single-file script ~0.4 KB,
 * the console's charts ~1.4 KB, uPlot most of it).
 */
export const LAST_MINIFY = { compress: { target: TARGET }, mangle: true };

/** `code` (the file at `path`: a module, or a classic script) through Oxc's minifier. */
export function lastMinify(path: string, code: string, module: boolean): string {
  const minified = minifySync(path, code, { ...LAST_MINIFY, module });
  if (minified.errors.length) throw new Error(`${path}: ${minified.errors.map((e) => e.message).join('; ')}`);
  return minified.code;
}

/** The bundle's own source files (not its packages') that a build read, by its metafile: absolute paths (`dir`: the build's working folder). */
export const ownSources = (metafile: Metafile, dir = process.cwd()): string[] =>
  Object.keys(metafile.inputs)
    .filter((f) => !f.includes('node_modules/'))
    .map((f) => resolve(dir, f));

/** esbuild's `mangleProps` for exactly these names. */
export const mangling = (names: string[]): RegExp => new RegExp(`^(?:${names.map(nameSource).join('|')})$`);
