/**
 * idb 8 always installs its async iterators (`for await` over a store, an index or a cursor), about
 * 0.2 KB (brotli) of the widget, which the outbox does not use: it walks its cursors by hand. This
 * esbuild plugin leaves that part of idb's module out of the widget's bundles. Should idb's module
 * no longer hold that part as expected (a new version), the build fails rather than guess.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

/** From the iterators' first declaration to the module's exports, which stay. */
const START = "const advanceMethodProps = ['advance', 'continue', 'continuePrimaryKey'];";
const END = 'export { deleteDB, openDB, unwrap, wrap };';

/** idb's module without its async iterators. */
export function withoutIterators(source: string): string {
  const start = source.indexOf(START);
  const end = source.indexOf(END);
  const part = source.slice(start, end);
  if (start < 0 || end < start || !part.includes('Symbol.asyncIterator') || part.includes('export '))
    throw new Error("idb's module is not as the widget build expects: check scripts/idb-without-iterators.ts against the installed idb");
  return source.slice(0, start) + source.slice(end);
}

export const idbWithoutIterators: Plugin = {
  name: 'idb-without-iterators',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]idb[\\/]build[\\/]index\.js$/ }, ({ path }) => ({
      loader: 'js',
      contents: withoutIterators(readFileSync(path, 'utf8')),
    }));
  },
};
