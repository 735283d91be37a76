/**
 * Lit's production build keeps one developer's message the widget never meets: "CSSResult is not
 * constructable. Use `unsafeCSS` or `css` instead.", thrown for a CSSResult made by hand (the
 * widget's styles all go through `unsafeCSS`). This esbuild plugin shortens it to "CSSResult", the
 * check and its throw kept, ~20 bytes (brotli) of the first load. Should the message no longer be
 * there (a new version), the build fails rather than guess.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

const MESSAGE = '"CSSResult is not constructable. Use `unsafeCSS` or `css` instead."';
const SHORT = '"CSSResult"';

/** Lit's css-tag module with the message shortened. */
export function withShortMessages(source: string): string {
  if (source.split(MESSAGE).length !== 2)
    throw new Error("lit's css-tag module is not as the widget build expects: check scripts/lit-short-messages.ts against the installed lit");
  return source.replace(MESSAGE, SHORT);
}

export const litShortMessages: Plugin = {
  name: 'lit-short-messages',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]@lit[\\/]reactive-element[\\/]css-tag\.js$/ }, ({ path }) => ({
      loader: 'js',
      contents: withShortMessages(readFileSync(path, 'utf8')),
    }));
  },
};
