import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Declarations emitted by tsc keep the sources' `.ts` specifiers; `.js` resolves to the `.d.ts`
 * for every consumer, so the widget's and the client's packages ship them rewritten.
 */
export function rewriteDeclarationSpecifiers(dir: string): void {
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.d.ts')) continue;
    const path = join(dir, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
  }
}
