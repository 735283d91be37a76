/** The built-in corpus: the product's own documentation, so the demo answers questions about rag-feedback. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../scripts/wrangler.ts';
import type { Corpus } from './chunk.ts';
import { chunkMarkdown } from './markdown.ts';

/** Markdown files of the repository that make up the built-in corpus. */
export const DOC_FILES = ['README.md'];

/** Questions the README answers, offered on an empty chat: ones retrieval alone answers well, for a first look. */
export const DOC_EXAMPLES = [
  'How does the widget redact personal information?',
  'How does the widget send events when the page closes?',
  'What does a thumbs-down ask?',
];

export function loadDocs(files: readonly string[] = DOC_FILES, root = ROOT): Corpus {
  return {
    name: 'rag-feedback docs',
    chunks: files.flatMap((f) => chunkMarkdown(f, readFileSync(join(root, f), 'utf8'))),
    examples: files === DOC_FILES ? DOC_EXAMPLES : [],
  };
}
