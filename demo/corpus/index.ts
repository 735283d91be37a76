/**
 * The demo's corpus: the built-in docs, or any directory in BEIR layout (`DEMO_CORPUS=../shared/data/scifact`),
 * read where it lies.
 */
import { resolve } from 'node:path';
import { loadBeir } from './beir.ts';
import { loadDocs } from './docs.ts';

export { loadBeir } from './beir.ts';
export type { Chunk, Corpus } from './chunk.ts';
export { loadDocs } from './docs.ts';

/** `undefined` or `"docs"`: the built-in docs; anything else: a BEIR directory, relative to the working directory. */
export const loadCorpus = async (spec?: string) => (!spec || spec === 'docs' ? loadDocs() : loadBeir(resolve(spec)));
