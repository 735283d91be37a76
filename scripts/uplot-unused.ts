/**
 * uPlot hangs its optional parts on the uPlot function (uPlot.join, uPlot.paths.*), so a bundler
 * keeps them whether they are used or not. The console's charts draw lines (uPlot's default path)
 * and never join tables: this esbuild plugin drops the statements that attach the table join and
 * the stepped, bars and spline path builders, and the minifier then leaves their code out, about
 * 2.3 KB (brotli) of the health page. Should uPlot's module no longer hold them as expected (a new
 * version), the build fails rather than guess.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

/** Each attachment, as uPlot 1.6's ES module writes it. */
const ATTACHED = ['{\n\tuPlot.join = join;\n}\n', '\t(paths.stepped = stepped);\n', '\t(paths.bars    = bars);\n', '\t(paths.spline  = monotoneCubic);\n'];

/** uPlot's module without the parts the console never uses attached. */
export function withoutUnusedParts(source: string): string {
  let out = source;
  for (const statement of ATTACHED) {
    if (out.split(statement).length !== 2)
      throw new Error("uPlot's module is not as the console build expects: check scripts/uplot-unused.ts against the installed uplot");
    out = out.replace(statement, '');
  }
  return out;
}

export const uplotWithoutUnusedParts: Plugin = {
  name: 'uplot-without-unused-parts',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/ }, ({ path }) => ({
      loader: 'js',
      contents: withoutUnusedParts(readFileSync(path, 'utf8')),
    }));
  },
};
