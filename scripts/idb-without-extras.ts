/**
 * idb 8 always installs two extras that the outbox does not use, about 0.45 KB (brotli) of the
 * widget: the database's shortcuts (`db.get(store, key)`…; the outbox goes through transactions
 * and their stores) and the async iterators (`for await` over a store, an index or a cursor; it
 * walks its cursors by hand). This esbuild plugin leaves both, the end of idb's module, out of the
 * widget's bundles. Should idb's module no longer hold them as expected (a new version), the
 * build fails rather than guess.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

/** From the shortcuts' first declaration, past the iterators, to the module's exports, which stay. */
const START = "const readMethods = ['get', 'getKey', 'getAll', 'getAllKeys', 'count'];";
const END = 'export { deleteDB, openDB, unwrap, wrap };';

/** idb's module without its database shortcuts and async iterators. */
export function withoutExtras(source: string): string {
  const start = source.indexOf(START);
  const end = source.indexOf(END);
  const part = source.slice(start, end);
  // Both extras, each installed through one call of replaceTraps, and nothing else that could be used elsewhere.
  const installs = part.match(/^replaceTraps\(/gm)?.length ?? 0;
  if (start < 0 || end < start || installs !== 2 || !part.includes('Symbol.asyncIterator') || !part.includes('IDBDatabase') || part.includes('export '))
    throw new Error("idb's module is not as the widget build expects: check scripts/idb-without-extras.ts against the installed idb");
  return source.slice(0, start) + source.slice(end);
}

export const idbWithoutExtras: Plugin = {
  name: 'idb-without-extras',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]idb[\\/]build[\\/]index\.js$/ }, ({ path }) => ({
      loader: 'js',
      contents: withoutExtras(readFileSync(path, 'utf8')),
    }));
  },
};
