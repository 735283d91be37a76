import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { uplotWithoutUnusedParts, withoutUnusedParts } from './uplot-unused.ts';
import { ROOT } from './wrangler.ts';

const uplotModule = () => readFileSync(join(createRequire(import.meta.url).resolve('uplot/package.json'), '..', 'dist', 'uPlot.esm.js'), 'utf8');

/** uPlot bundled and minified as the console's build does, with or without the plugin. */
async function bundled(trimmed: boolean): Promise<string> {
  const { outputFiles } = await build({
    stdin: { contents: "export { default } from 'uplot';", resolveDir: ROOT },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    plugins: trimmed ? [uplotWithoutUnusedParts] : [],
  });
  return outputFiles[0]!.text;
}

type UPlotStatics = { paths: Record<string, unknown>; join?: unknown; tzDate?: unknown; rangeNum?: unknown };
const load = async (code: string) => (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)).default as UPlotStatics;

describe("uPlot's module in the console's bundle", () => {
  it('leaves out the table join and the stepped, bars and spline paths, keeping the lines, points and what the chart calls', async () => {
    const [full, trimmed] = await Promise.all([bundled(false), bundled(true)]);
    const before = await load(full);
    const after = await load(trimmed);
    expect(Object.keys(before.paths).sort()).toEqual(['bars', 'linear', 'points', 'spline', 'stepped']);
    expect(Object.keys(after.paths).sort()).toEqual(['linear', 'points']);
    expect(before.join).toBeTypeOf('function');
    expect(after.join).toBeUndefined();
    expect(after.tzDate).toBeTypeOf('function');
    expect(after.rangeNum).toBeTypeOf('function');
    // The parts' code goes too, not only their names.
    expect(trimmed.length).toBeLessThan(full.length - 5_000);
  });

  it('fails the build when uPlot no longer attaches them as expected, rather than cut something else', () => {
    expect(() => withoutUnusedParts('export { uPlot as default };')).toThrow(/uPlot's module is not as the console build expects/);
    const moved = uplotModule().replace('(paths.bars    = bars);', '(paths.bars = bars);');
    expect(() => withoutUnusedParts(moved)).toThrow(/not as the console build expects/);
  });
});
