/**
 * A test collection in BEIR layout, read where it lies (never copied): `corpus.jsonl`
 * (`{"_id", "title", "text"}` a line), `queries.jsonl` (`{"_id", "text"}`) and
 * `qrels/<split>.tsv` (`query-id  corpus-id  score`, after a header line). Files are streamed
 * line by line, so a large corpus never sits in memory twice.
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Chunk, Corpus } from './chunk.ts';
import { contentVersion } from './version.ts';

async function* lines(path: string): AsyncGenerator<string> {
  const input = createReadStream(path, { encoding: 'utf8' });
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) if (line.trim()) yield line;
  } finally {
    input.destroy();
  }
}

/**
 * One chunk per document: BEIR documents (abstracts, passages) are already passage-sized. An id
 * that comes again replaces the document before it, as BEIR's own loader does; `duplicates`
 * counts them, since two documents under one id cannot both be judged.
 */
export async function readBeirCorpus(dir: string): Promise<{ chunks: Chunk[]; duplicates: number }> {
  const byId = new Map<string, Chunk>();
  let duplicates = 0;
  for await (const line of lines(join(dir, 'corpus.jsonl'))) {
    const doc = JSON.parse(line) as { _id: string | number; title?: string | null; text?: string | null };
    const id = String(doc._id);
    const title = doc.title ?? '';
    const text = doc.text ?? '';
    if (byId.has(id)) duplicates++;
    byId.set(id, { chunkId: id, sourceDocId: id, sourceDocVersion: contentVersion(`${title}\n${text}`), title, text });
  }
  return { chunks: [...byId.values()], duplicates };
}

export async function readBeirQueries(dir: string): Promise<Map<string, string>> {
  const queries = new Map<string, string>();
  for await (const line of lines(join(dir, 'queries.jsonl'))) {
    const q = JSON.parse(line) as { _id: string | number; text: string };
    queries.set(String(q._id), q.text);
  }
  return queries;
}

/**
 * One split's judgments: query id to document id to grade. A first line whose first column is
 * `query-id` is the header; any other row must be `query-id<TAB>corpus-id<TAB>integer score`, or
 * the file is refused with its line, so that no judgment is lost without a word.
 */
export async function readBeirQrels(path: string): Promise<Map<string, Map<string, number>>> {
  const qrels = new Map<string, Map<string, number>>();
  let lineNo = 0;
  for await (const line of lines(path)) {
    lineNo++;
    const [queryId, docId, score, ...rest] = line.split('\t');
    // The header names its columns (`query-id  corpus-id  score`); a first row of data is checked as any other.
    if (lineNo === 1 && /^query[-_ ]?id$/i.test(queryId ?? '')) continue;
    const grade = Number(score);
    if (!queryId || !docId || !score?.trim() || !Number.isInteger(grade) || rest.length) {
      throw new Error(`${path}:${lineNo}: expected "query-id<TAB>corpus-id<TAB>integer score", got ${JSON.stringify(line.slice(0, 200))}`);
    }
    let judged = qrels.get(queryId);
    if (!judged) qrels.set(queryId, (judged = new Map()));
    judged.set(docId, grade);
  }
  return qrels;
}

/** How many questions an empty chat offers. */
const EXAMPLE_COUNT = 3;

/** The first judged training questions: never a test question, which must not reach traffic. */
function trainExamples(queries: ReadonlyMap<string, string>, train: ReadonlyMap<string, unknown> | undefined, count = EXAMPLE_COUNT): string[] {
  return [...(train?.keys() ?? [])]
    .map((id) => queries.get(id))
    .filter((q): q is string => Boolean(q))
    .slice(0, count);
}

/** The whole collection: chunks, queries, and every split found in `qrels/`. */
export async function loadBeir(dir: string): Promise<Corpus> {
  if (!existsSync(join(dir, 'corpus.jsonl'))) throw new Error(`${dir} is not a BEIR directory: no corpus.jsonl`);
  const qrelsDir = join(dir, 'qrels');
  const splits = existsSync(qrelsDir) ? readdirSync(qrelsDir).filter((f) => f.endsWith('.tsv')) : [];
  const [{ chunks, duplicates }, queries, ...judged] = await Promise.all([
    readBeirCorpus(dir),
    existsSync(join(dir, 'queries.jsonl')) ? readBeirQueries(dir) : new Map<string, string>(),
    ...splits.map((f) => readBeirQrels(join(qrelsDir, f))),
  ]);
  const qrels = new Map(splits.map((f, i) => [basename(f, '.tsv'), judged[i]!]));
  return { name: basename(dir), chunks, duplicateIds: duplicates, queries, qrels, examples: trainExamples(queries, qrels.get('train')) };
}
