import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { webVitalsPrivateNames, webVitalsWithoutSoftNavs, withoutSoftNavs } from './web-vitals-without-soft-navs.ts';
import { ROOT } from './wrangler.ts';

/** The metrics the widget reports, bundled and minified as its build does, with or without the plugin. */
async function bundleMetrics(plugins: (typeof webVitalsWithoutSoftNavs)[]): Promise<string> {
  const { outputFiles } = await build({
    stdin: {
      contents: "export { onCLS } from 'web-vitals/onCLS.js'; export { onINP } from 'web-vitals/onINP.js'; export { onLCP } from 'web-vitals/onLCP.js';",
      resolveDir: ROOT,
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    plugins,
  });
  return outputFiles[0]!.text;
}

describe("web-vitals' modules in the widget's bundles", () => {
  it('never ask whether soft navigations are reported, so that code is left out; CLS, INP and LCP stay', async () => {
    const full = await bundleMetrics([]);
    const trimmed = await bundleMetrics([webVitalsWithoutSoftNavs]);
    expect(full).toContain('reportSoftNavs');
    expect(trimmed).not.toContain('reportSoftNavs');
    for (const metric of ['"CLS"', '"INP"', '"LCP"', 'layout-shift', 'largest-contentful-paint']) expect(trimmed).toContain(metric);
    expect(trimmed.length).toBeLessThan(full.length - 500);
  });

  it('fails the build when a module asks otherwise, rather than keep or cut the wrong code', () => {
    const asks = "import { checkSoftNavsEnabled } from './lib/softNavs.js';\nconst on = (opts) => checkSoftNavsEnabled(opts);";
    expect(withoutSoftNavs(asks)).toContain('const on = (opts) => false;');
    expect(() => withoutSoftNavs(asks.replaceAll('(opts)', '(options)'))).toThrow(/web-vitals module is not as the widget build expects/);
  });

  it("names the modules' private members, for the build to shorten", () => {
    const names = webVitalsPrivateNames(ROOT);
    expect(names).toEqual(expect.arrayContaining(['_sessionValue', '_processEntry']));
    for (const name of names) expect(name).toMatch(/^_[A-Za-z]\w*$/);
  });
});
