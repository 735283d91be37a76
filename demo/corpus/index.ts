/**
 * The demo's corpus: the built-in docs, or any directory in BEIR layout (`DEMO_CORPUS=../shared/data/scifact`),
 * read where it lies.
 */
import { resolve } from 'node:path';
import { checkBeirDir, loadBeir } from './beir.ts';
import { loadDocs } from './docs.ts';

export { loadBeir } from './beir.ts';
export type { Chunk, Corpus } from './chunk.ts';
export { loadDocs } from './docs.ts';

const isDocs = (spec?: string): spec is undefined | 'docs' => !spec || spec === 'docs';

/** `undefined` or `"docs"`: the built-in docs; anything else: a BEIR directory, relative to the working directory. */
export const loadCorpus = async (spec?: string) => (isDocs(spec) ? loadDocs() : loadBeir(resolve(spec)));

/** Refuses, in one line, a spec naming no BEIR directory, before anything is loaded or started. */
export function checkCorpus(spec?: string): void {
  if (!isDocs(spec)) checkBeirDir(resolve(spec));
}

/**
 * `DEMO_CORPUS` as `loadCorpus` takes it. npm runs a script from the package's root, wherever it was
 * typed: a relative path is read from where npm was run (`INIT_CWD`), as the shell it was typed in reads it.
 */
export function corpusFromEnv(env: Record<string, string | undefined> = process.env): string | undefined {
  const spec = env.DEMO_CORPUS;
  return isDocs(spec) ? spec : resolve(env.INIT_CWD ?? '', spec);
}
