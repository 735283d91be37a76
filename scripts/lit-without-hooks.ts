/**
 * Lit's production modules still call hooks that a page may set on globalThis before they run: the
 * web-components polyfills' (`litHtmlPolyfillSupport` and the like, for browsers without native
 * shadow DOM) and server rendering's hydration (`litElementHydrateSupport`); and they note their
 * versions there (`litHtmlVersions`…), read only by Lit's development build, to warn of several
 * copies. The widget targets browsers whose custom elements and shadow DOM are native (es2022), is
 * never rendered on a server, and ships Lit's production build: this esbuild plugin leaves those
 * lines out, ~110 bytes (brotli) of the first load. Should a line no longer be as expected (a new
 * version of Lit), the build fails rather than guess.
 *
 * lit-html also resolves every value a template is given in case it is a directive's result
 * (`classMap(…)`, `ref(…)`: an object marked `_$litDirective$`), and keeps the directive's instance
 * on the part. The widget imports no directive, and its templates' values are its own strings,
 * numbers, templates, handlers and `nothing`: that resolution hands the value back as it is, as it
 * did for each of those (~0.1 KB brotli). Importing a directive fails the build.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

/** Per module, each piece to leave out, as the minified production file writes it, and what takes its place. */
const CUTS: Record<string, [RegExp, string][]> = {
  'lit-html/lit-html.js': [
    [
      /function (\w+)\((\w+),(\w+),\w+=\2,\w+\)\{if\(\3===\w+\)return \3;[^}]*_\$litDirective\$;return .{0,300}?,\3\}(?=class )/,
      'function $1($2,$3){return $3}',
    ],
    [/,(\w+)=(\w+)\.litHtmlPolyfillSupport;\1\?\.\(\w+,\w+\),\(\2\.litHtmlVersions\?\?=\[\]\)\.push\("[\d.]+"\);/, ';'],
  ],
  '@lit/reactive-element/reactive-element.js': [
    [/(\w+)=\w+\.reactiveElementPolyfillSupport,/, ''],
    [/,\w+\?\.\(\{ReactiveElement:\w+\}\),\(\w+\.reactiveElementVersions\?\?=\[\]\)\.push\("[\d.]+"\)/, ''],
  ],
  'lit-element/lit-element.js': [
    [/,(\w+)\.litElementHydrateSupport\?\.\(\{LitElement:\w+\}\);const (\w+)=\1\.litElementPolyfillSupport;\2\?\.\(\{LitElement:\w+\}\);/, ';'],
    [/\(\w+\.litElementVersions\?\?=\[\]\)\.push\("[\d.]+"\);/, ''],
  ],
};

/** The module `file` (a key of CUTS) without its hooks and version note; throws where a piece is not found once. */
export function withoutHooks(file: string, source: string): string {
  return CUTS[file]!.reduce((code, [piece, by]) => {
    if (code.match(new RegExp(piece, 'g'))?.length !== 1)
      throw new Error(`${file} is not as the widget build expects: check scripts/lit-without-hooks.ts against the installed lit`);
    return code.replace(piece, by);
  }, source);
}

export const litWithoutHooks: Plugin = {
  name: 'lit-without-hooks',
  setup(b) {
    // Lit's directives (`lit/directives/…`, `lit/directive.js`…) and lit-html's.
    b.onResolve({ filter: /^lit(?:-html)?\/(?:async-)?directives?\b/ }, ({ path }) => ({
      errors: [{ text: `${path}: the widget build leaves Lit's directive support out (scripts/lit-without-hooks.ts)` }],
    }));
    b.onLoad(
      { filter: /[\\/]node_modules[\\/](lit-html[\\/]lit-html|@lit[\\/]reactive-element[\\/]reactive-element|lit-element[\\/]lit-element)\.js$/ },
      ({ path }) => {
        const file = Object.keys(CUTS).find((f) => path.replaceAll('\\', '/').endsWith(`/node_modules/${f}`))!;
        return { loader: 'js', contents: withoutHooks(file, readFileSync(path, 'utf8')) };
      },
    );
  },
};
