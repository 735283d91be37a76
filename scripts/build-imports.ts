import type { Metafile } from 'esbuild';

type Imported = Metafile['outputs'][string]['imports'][number];

/** An import that loading the file fetches at once (not a dynamic `import()`, fetched when called). */
export const isStatic = (i: Imported): boolean => i.kind === 'import-statement';

/**
 * What `outputs` of a build reach through the imports `follows` takes (by default every one, dynamic
 * too), read from the build's metafile: the build's files, those given included, and the paths the
 * build left to the runtime (externals, `node:fs` say).
 */
export function reached(
  metafile: Metafile,
  outputs: readonly string[],
  follows: (i: Imported) => boolean = () => true,
): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const i of metafile.outputs[file]?.imports ?? []) {
      if (!follows(i)) continue;
      if (i.external) external.add(i.path);
      else visit(i.path);
    }
  };
  for (const output of outputs) visit(output);
  return { files, external };
}
