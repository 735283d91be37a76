import { build } from 'esbuild';
import { minifySync } from 'rolldown/utils';
import { describe, expect, it } from 'vitest';
import {
  webVitalsPrivateNames,
  webVitalsWithoutSoftNavs,
  withoutHardNavigationType,
  withoutNavigationFields,
  withoutOptions,
  withoutSoftNavs,
} from './web-vitals-without-soft-navs.ts';
import { ROOT } from './wrangler.ts';

/** The metrics the widget reports, bundled and minified as its build does (esbuild, then Oxc), with or without the plugin. */
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
  // Oxc's minifier has the last word, as in the build: it drops the handlers no branch calls any more.
  return minifySync('metrics.js', outputFiles[0]!.text, { compress: { target: 'es2022' }, mangle: true }).code;
}

describe("web-vitals' modules in the widget's bundles", () => {
  it('never ask whether soft navigations are reported, so that code and the handling of their entries are left out; CLS, INP and LCP stay', async () => {
    const full = await bundleMetrics([]);
    const trimmed = await bundleMetrics([webVitalsWithoutSoftNavs]);
    expect(full).toContain('reportSoftNavs');
    expect(trimmed).not.toContain('reportSoftNavs');
    // Nor the handling of entries only those observers would bring: a soft navigation, a paint after one.
    for (const softOnly of ['getLargestInteractionContentfulPaint', 'interaction-contentful-paint']) {
      expect(full).toContain(softOnly);
      expect(trimmed).not.toContain(softOnly);
    }
    // Nor the checks whether a metric was set up for a soft navigation: no word of them is left.
    expect(full).toContain('soft-navigation');
    expect(trimmed).not.toContain('soft-navigation');
    for (const metric of ['`CLS`', '`INP`', '`LCP`', 'layout-shift', 'largest-contentful-paint', 'back-forward-cache']) expect(trimmed).toContain(metric);
    expect(trimmed.length).toBeLessThan(full.length - 500);
  });

  it('read no options, which the widget never passes: every metric reports only when asked to, INP from its default duration', async () => {
    const full = await bundleMetrics([]);
    const trimmed = await bundleMetrics([webVitalsWithoutSoftNavs]);
    for (const option of ['reportAllChanges', '.durationThreshold']) {
      expect(full).toContain(option);
      expect(trimmed).not.toContain(option);
    }
    expect(() => withoutOptions('x(opts.reportAllChanges);')).toThrow(/web-vitals module is not as the widget build expects/);
  });

  it('fails the build when a module asks otherwise, rather than keep or cut the wrong code', () => {
    const asks = "import { checkSoftNavsEnabled } from './lib/softNavs.js';\nconst on = (opts) => checkSoftNavsEnabled(opts);";
    expect(withoutSoftNavs(asks)).toContain('const on = (opts) => false;');
    expect(() => withoutSoftNavs(asks.replaceAll('(opts)', '(options)'))).toThrow(/web-vitals module is not as the widget build expects/);
    // An entry of a soft navigation is never observed then: its handling goes, unless it is asked for otherwise.
    const handles = `${asks}\nconst seen = (entry) => entry.entryType === 'soft-navigation' ? soft(entry) : hard(entry);`;
    expect(withoutSoftNavs(handles)).toContain('const seen = (entry) => false ? soft(entry) : hard(entry);');
    expect(() => withoutSoftNavs(handles.replace('entry.entryType', 'e.entryType'))).toThrow(/web-vitals module is not as the widget build expects/);
    // A metric is never set up for a soft navigation then: the checks of its navigation type go, and one of another name fails.
    const setUp = "const reset = (navigationType) => navigationType === 'soft-navigation' || navigationType === 'back-forward-cache';";
    expect(withoutSoftNavs(setUp)).toContain("(navigationType) => false || navigationType === 'back-forward-cache';");
    expect(withoutSoftNavs("if (navigation === 'soft-navigation') reset();")).toBe('if (false) reset();');
    expect(() => withoutSoftNavs(setUp.replaceAll('navigationType', 'kind'))).toThrow(/web-vitals module is not as the widget build expects/);
    // Nor may any other comparison with either type stay behind, which the rewrite leaves as it is.
    for (const left of [
      "if (navigationType !== 'soft-navigation') keep();",
      "if (navigation == 'soft-navigation') reset();",
      'if (navigationType != "soft-navigation") keep();',
      "if ('soft-navigation' === navigationType) reset();",
      'if (`soft-navigation`!==navigation) keep();',
      "if (entry.name !== 'interaction-contentful-paint') keep();",
      "switch (navigationType) { case 'soft-navigation': reset(); }",
    ])
      expect(() => withoutSoftNavs(left), left).toThrow(/web-vitals module is not as the widget build expects/);
    // The build names the module it refused (the attribution modules hold such a comparison).
    expect(() => withoutSoftNavs("if (navigationType !== 'soft-navigation') keep();", '/w/attribution/onLCP.js')).toThrow(
      /^\/w\/attribution\/onLCP\.js is not/,
    );
  });

  it('set a metric up with no navigation type read from the navigation entry, only that of a back-forward cache restore', async () => {
    const full = await bundleMetrics([]);
    const trimmed = await bundleMetrics([webVitalsWithoutSoftNavs]);
    for (const entryTypeOnly of ['`prerender`', 'wasDiscarded', '`restore`']) {
      expect(full).toContain(entryTypeOnly);
      expect(trimmed).not.toContain(entryTypeOnly);
    }
    expect(trimmed).toContain('`navigate`');
    expect(trimmed).toContain('`back-forward-cache`');
    // The part left out does nothing but set the type: should it do more, or not be there, the build fails.
    const initMetric = [
      "    let _navigationType = 'navigate';",
      '    else if (hardNavEntry) {',
      '        if (document.prerendering) {',
      "            _navigationType = 'prerender';",
      '        }',
      '    }',
      '    // Use `entries` type specific for the metric.',
      '    const entries = [];',
    ].join('\n');
    expect(withoutHardNavigationType(initMetric)).toBe(
      ["    let _navigationType = 'navigate';", '    // Use `entries` type specific for the metric.', '    const entries = [];'].join('\n'),
    );
    const more = initMetric.replace("_navigationType = 'prerender';", "_navigationType = 'prerender';\n            report();");
    for (const changed of [more, initMetric.replace('hardNavEntry', 'entry')])
      expect(() => withoutHardNavigationType(changed)).toThrow(/is not as the widget build expects/);
  });

  it('set a metric up without the navigation it belongs to, which the widget does not report, nor pass that on after a restore', async () => {
    const full = await bundleMetrics([]);
    const trimmed = await bundleMetrics([webVitalsWithoutSoftNavs]);
    for (const field of ['navigationId', 'navigationInteractionId', 'navigationURL', 'navigationStartTime']) {
      expect(full).toContain(field);
      expect(trimmed).not.toContain(field);
    }
    expect(trimmed).toContain('navigationType');
    const restore = [
      'const initNew = (navigationType, navigationId, navigationInteractionId, navigationURL, navigationStartTime) => {',
      "    metric = initMetric('CLS', 0, navigationType, navigationId, navigationInteractionId, navigationURL, navigationStartTime);",
      '};',
      "onBFCacheRestore(() => initNew('back-forward-cache', metric.navigationId, metric.navigationInteractionId, metric.navigationURL, getBFCacheRestoreTime()));",
    ].join('\n');
    expect(withoutNavigationFields(restore)).toBe(
      [
        'const initNew = (navigationType) => {',
        "    metric = initMetric('CLS', 0, navigationType);",
        '};',
        "onBFCacheRestore(() => initNew('back-forward-cache'));",
      ].join('\n'),
    );
    // One still set or passed on, under another shape, fails the build rather than be kept for nothing.
    for (const left of [
      restore.replace('getBFCacheRestoreTime()', 'restoredAt()'),
      'const m = { name, navigationURL: url };',
      'metric.navigationId = entry.navigationId;',
    ])
      expect(() => withoutNavigationFields(left), left).toThrow(/web-vitals module is not as the widget build expects/);
  });

  it("names the modules' private members, for the build to shorten", () => {
    const names = webVitalsPrivateNames(ROOT);
    expect(names).toEqual(expect.arrayContaining(['_sessionValue', '_processEntry']));
    for (const name of names) expect(name).toMatch(/^_[A-Za-z]\w*$/);
  });
});
