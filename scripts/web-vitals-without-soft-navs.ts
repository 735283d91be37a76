/**
 * web-vitals 6 also measures soft navigations (a single-page app's route changes), but only for a
 * caller that passes `reportSoftNavs: true`, and the widget passes no options: that code never
 * runs. The prebuilt file keeps it; the package's ES modules, which the widget imports instead
 * (`web-vitals/onCLS.js`…), ask `checkSoftNavsEnabled(opts)` once per metric, and this esbuild
 * plugin answers `false` there so that the minifier drops those branches (~0.15 KB brotli), and
 * `false` to whether an entry is a soft navigation's, or a paint after one, which a metric observes
 * only then, so that their handling goes too (~0.2 KB more), and to whether a metric was set up for
 * a soft navigation (LCP's and INP's checks of its navigation type). Should a module ask otherwise
 * (a new version), the build fails rather than keep or cut the wrong code.
 *
 * Each metric also carries the type of the navigation that loaded the page, read from its
 * navigation entry (`reload`, `prerender`, `restore`…). The widget reports a metric's name, value
 * and rating alone, and web-vitals itself tells only a restore from the back-forward cache apart,
 * which it learns otherwise: the metric keeps `navigate` for every other (~50 bytes brotli).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

const CALL = /\bcheckSoftNavsEnabled\(opts\)/g;
/**
 * An entry of a soft navigation, or of a paint after one: a metric observes those types only when
 * it reports soft navigations, so none reaches it, and the code that handles them goes too.
 */
const SOFT_ENTRY = /\bentry\.entryType === '(?:soft-navigation|interaction-contentful-paint)'/g;
/**
 * A metric's navigation type, a soft navigation's only when the handling of its entry set the
 * metric up anew (the navigation entry's own types are never that one).
 */
const SOFT_TYPE = /\bnavigation(?:Type)? === 'soft-navigation'/g;

/**
 * What no module may hold once those are answered: a call asking, an entry type of theirs, or any
 * other comparison with either type (`!==`, `==`, the string on the left, a `case`), which the
 * rewrite would leave as it is.
 */
const TYPES = '(?:soft-navigation|interaction-contentful-paint)';
const QUOTED = `['"\`]${TYPES}['"\`]`;
const LEFTOVER = new RegExp(String.raw`\bcheckSoftNavsEnabled\s*\(|entryType\W+${TYPES}|[!=]==?\s*${QUOTED}|${QUOTED}\s*[!=]=|\bcase\s+${QUOTED}`);

/** A web-vitals module with its soft-navigation checks answered `false`. */
export function withoutSoftNavs(source: string, path = 'a web-vitals module'): string {
  const asks = source.includes('import { checkSoftNavsEnabled');
  const out = source.replace(CALL, 'false').replace(SOFT_ENTRY, 'false').replace(SOFT_TYPE, 'false');
  if ((asks && out === source) || LEFTOVER.test(out))
    throw new Error(`${path} is not as the widget build expects: check scripts/web-vitals-without-soft-navs.ts against the installed web-vitals`);
  return out;
}

/** Where initMetric reads the page's navigation entry for its type, after telling a back-forward cache restore by its time. */
const HARD_TYPE_START = '\n    else if (hardNavEntry) {';
const HARD_TYPE_END = '\n    // Use `entries` type';

/**
 * web-vitals' initMetric without its reading of the navigation type from the page's navigation
 * entry: a metric not set up for a back-forward cache restore is `navigate`. The part left out must
 * do nothing but set that type, else the build fails.
 */
export function withoutHardNavigationType(source: string, path = "web-vitals' initMetric"): string {
  const start = source.indexOf(HARD_TYPE_START);
  const end = source.indexOf(HARD_TYPE_END, start);
  const part = source.slice(start, end);
  const statements = part.split('\n').filter((line) => line.trim().endsWith(';'));
  if (start < 0 || end < 0 || !part.includes("'prerender'") || !statements.every((line) => /^\s*_navigationType = [^;]+;$/.test(line)))
    throw new Error(`${path} is not as the widget build expects: check scripts/web-vitals-without-soft-navs.ts against the installed web-vitals`);
  return source.slice(0, start) + source.slice(end);
}

const FIELD = 'navigation(?:Id|InteractionId|URL|StartTime)';
/** What sets up or passes on a navigation field, once they are left out: a metric's field, an assignment, an argument or a parameter. */
const FIELD_LEFT = new RegExp(String.raw`\b${FIELD}\s*(?::|=(?!=))|[(,]\s*(?:metric\.)?${FIELD}\b`);

/**
 * Each metric also carries the navigation it belongs to (`navigationId`, `navigationInteractionId`,
 * `navigationURL`, `navigationStartTime`: a soft navigation's, else the page's own), passed on to
 * the metric set up anew after a back-forward cache restore. The widget reports none of them: they
 * go from initMetric, with the arguments that carry them (~0.13 KB brotli). Should one still be set
 * or passed on (a new version), the build fails.
 */
export function withoutNavigationFields(source: string, path = 'a web-vitals module'): string {
  const out = source
    // initMetric's parameters, and those of each metric's own setup, which passes them on.
    .replace(/, navigationId(?: = 0)?, navigationInteractionId, navigationURL, navigationStartTime\)/g, ')')
    // A restore from the back-forward cache: the metric's, and the restore's time as its start.
    .replace(/, metric\.navigationId, metric\.navigationInteractionId, metric\.navigationURL, getBFCacheRestoreTime\(\)\)/g, ')')
    // A soft navigation's entry (code the soft-navigation checks already leave out).
    .replace(/, entry\.navigationId, entry\.interactionId, entry\.name, entry\.startTime\)/g, ')')
    .replace(/\n\s*metric\.navigationId = entry\.navigationId \|\| metric\.navigationId;/g, '')
    // initMetric's fields, and its reading of the page's navigation entry for them.
    .replace(/\n\s*const hardNavEntry = getNavigationEntry\(\);\n\s*const hardNavId = [^;\n]*;/, '')
    .replace(new RegExp(String.raw`\n\s*${FIELD}: [^\n]*,(?=\n)`, 'g'), '');
  if (FIELD_LEFT.test(out) || /\bhardNav/.test(out))
    throw new Error(`${path} is not as the widget build expects: check scripts/web-vitals-without-soft-navs.ts against the installed web-vitals`);
  return out;
}

/**
 * The widget passes web-vitals no options: no metric reports every change (`reportAllChanges`), and
 * INP observes events from its default duration on. bindReporter then reports only when asked to,
 * LCP keeps only the latest entry of each batch, and the option's reads and arguments go (~40 bytes
 * brotli). Should a module still read an option (a new version), the build fails.
 */
export function withoutOptions(source: string, path = 'a web-vitals module'): string {
  const out = source
    .replace(/, opts\.reportAllChanges\)/g, ')')
    .replace(/!opts\.reportAllChanges && /g, '')
    .replace(/\.\.\.opts,\s*durationThreshold: opts\.durationThreshold \?\? /g, 'durationThreshold: ')
    .replace(/, reportAllChanges\) => \{/, ') => {')
    .replace(/\(forceReport \|\| reportAllChanges\)/, '(forceReport)');
  if (/\bopts\.(?:reportAllChanges|durationThreshold)\b|\|\| reportAllChanges\b/.test(out))
    throw new Error(`${path} is not as the widget build expects: check scripts/web-vitals-without-soft-navs.ts against the installed web-vitals`);
  return out;
}

/** The folder of web-vitals' ES modules (its package.json is not exported). */
const modulesDir = (root: string) => dirname(createRequire(join(root, 'package.json')).resolve('web-vitals/onCLS.js'));

/**
 * The `_`-prefixed private members of web-vitals' modules (`_sessionValue`…), which its prebuilt
 * file has short already: the widget build shortens them too (esbuild's `mangleProps`).
 */
export function webVitalsPrivateNames(root: string): string[] {
  const dir = modulesDir(root);
  const names = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.js') || file.startsWith('attribution')) continue;
    for (const [, name] of readFileSync(join(dir, file), 'utf8').matchAll(/(?:\.|^[ \t]+)(_[A-Za-z]\w*)/gm)) names.add(name!);
  }
  return [...names].sort();
}

export const webVitalsWithoutSoftNavs: Plugin = {
  name: 'web-vitals-without-soft-navs',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]web-vitals[\\/]dist[\\/]modules[\\/].*\.js$/ }, ({ path }) => {
      const source = withoutSoftNavs(readFileSync(path, 'utf8'), path);
      const trimmed = /[\\/]lib[\\/]initMetric\.js$/.test(path) ? withoutHardNavigationType(source, path) : source;
      return { loader: 'js', contents: withoutOptions(withoutNavigationFields(trimmed, path), path) };
    });
  },
};
