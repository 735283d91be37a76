/**
 * A test collection in BEIR layout, read where it lies (never copied): `corpus.jsonl`
 * (`{"_id", "title", "text"}` a line), `queries.jsonl` (`{"_id", "text"}`) and
 * `qrels/<split>.tsv` (`query-id  corpus-id  score`, after a header line). Files are streamed
 * line by line, so a large corpus never sits in memory twice.
 */
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import * as v from 'valibot';
import { externalId } from '../../shared/schema/common.ts';
import { queryKey } from '../../shared/terms.ts';
import type { Chunk, Corpus } from './chunk.ts';
import { contentVersion } from './version.ts';

/**
 * The file's lines but blank ones, each with its number in the file (blank ones counted), for errors
 * to name. A byte order mark, which Windows editors write first, is not part of the first line: left
 * there, it fails the first record's JSON, hides a qrels header, or becomes part of a query id.
 */
async function* lines(path: string): AsyncGenerator<[line: string, lineNo: number]> {
  const input = createReadStream(path, { encoding: 'utf8' });
  let lineNo = 0;
  try {
    for await (const read of createInterface({ input, crlfDelay: Infinity })) {
      const line = lineNo === 0 ? read.replace(/^\uFEFF/, '') : read;
      lineNo++;
      if (line.trim()) yield [line, lineNo];
    }
  } finally {
    input.destroy();
  }
}

/** A line of a JSON Lines file as its object; any other line is refused, naming the file and the line. */
async function* records(path: string): AsyncGenerator<{ record: Record<string, unknown>; at: string }> {
  for await (const [line, lineNo] of lines(path)) {
    const at = `${path}:${lineNo}`;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (err) {
      throw new Error(`${at}: not valid JSON (${(err as Error).message})`);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      throw new Error(`${at}: expected a JSON object, got ${JSON.stringify(line.slice(0, 200))}`);
    }
    yield { record: record as Record<string, unknown>, at };
  }
}

/** A record's `_id` (a string or a number), as a trace takes an id: an empty one, say, would have its traces refused. */
function idOf(record: Record<string, unknown>, at: string): string {
  const id = record._id;
  if (typeof id !== 'string' && typeof id !== 'number') throw new Error(`${at}: expected "_id" (a string or a number), got ${JSON.stringify(id) ?? 'none'}`);
  const checked = v.safeParse(externalId(), String(id));
  if (!checked.success) throw new Error(`${at}: "_id" ${checked.issues[0].message}, got ${JSON.stringify(id)}`);
  return checked.output;
}

/** A record's text field: a string, or missing or null for none. */
function textOf(record: Record<string, unknown>, field: string, at: string): string {
  const value = record[field] ?? '';
  if (typeof value !== 'string') throw new Error(`${at}: expected "${field}" to be a string, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * One chunk per document: BEIR documents (abstracts, passages) are already passage-sized. An id
 * that comes again replaces the document before it, as BEIR's own loader does; `duplicates`
 * counts them, since two documents under one id cannot both be judged.
 */
export async function readBeirCorpus(dir: string): Promise<{ chunks: Chunk[]; duplicates: number }> {
  const byId = new Map<string, Chunk>();
  let duplicates = 0;
  for await (const { record, at } of records(join(dir, 'corpus.jsonl'))) {
    const id = idOf(record, at);
    const title = textOf(record, 'title', at);
    const text = textOf(record, 'text', at);
    if (byId.has(id)) duplicates++;
    byId.set(id, { chunkId: id, sourceDocId: id, sourceDocVersion: contentVersion(`${title}\n${text}`), title, text });
  }
  return { chunks: [...byId.values()], duplicates };
}

export async function readBeirQueries(dir: string): Promise<Map<string, string>> {
  const queries = new Map<string, string>();
  for await (const { record, at } of records(join(dir, 'queries.jsonl'))) queries.set(idOf(record, at), textOf(record, 'text', at));
  return queries;
}

/**
 * One split's judgments: query id to document id to grade. A first line whose first column is
 * `query-id` is the header; any other row must be `query-id<TAB>corpus-id<TAB>integer score`, or
 * the file is refused with its line, so that no judgment is lost without a word.
 */
export async function readBeirQrels(path: string): Promise<Map<string, Map<string, number>>> {
  const qrels = new Map<string, Map<string, number>>();
  let first = true;
  for await (const [line, lineNo] of lines(path)) {
    const [queryId, docId, score, ...rest] = line.split('\t');
    // The header names its columns (`query-id  corpus-id  score`); a first row of data is checked as any other.
    const header = first && /^query[-_ ]?id$/i.test(queryId ?? '');
    first = false;
    if (header) continue;
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

/**
 * The first training questions a document answers (a grade above 0: one judged only 0 was judged
 * unanswered), never a test question, which must not reach traffic, by id or in its terms (the
 * product's question key: a collection may judge one question in both splits, or ask it twice).
 */
function trainExamples(
  queries: ReadonlyMap<string, string>,
  train: ReadonlyMap<string, ReadonlyMap<string, number>> | undefined,
  test: ReadonlyMap<string, unknown> | undefined,
  count = EXAMPLE_COUNT,
): string[] {
  const testKeys = new Set([...(test?.keys() ?? [])].map((id) => queryKey(queries.get(id) ?? '')));
  return [...(train ?? [])]
    .filter(([id, judged]) => !test?.has(id) && [...judged.values()].some((grade) => grade > 0))
    .map(([id]) => id)
    .flatMap((id) => queries.get(id) ?? [])
    .filter((q) => q !== '' && !testKeys.has(queryKey(q)))
    .slice(0, count);
}

/** Refuses a path that is no BEIR directory, in one line: `npm start` checks it before anything starts. */
export function checkBeirDir(dir: string): void {
  if (!existsSync(dir)) throw new Error(`${dir} does not exist: give a BEIR directory (holding corpus.jsonl)`);
  if (!existsSync(join(dir, 'corpus.jsonl'))) throw new Error(`${dir} is not a BEIR directory: no corpus.jsonl`);
}

/** The whole collection: chunks, queries, and every split found in `qrels/`. */
export async function loadBeir(dir: string): Promise<Corpus> {
  // A mistyped DEMO_CORPUS is named as such, not as a directory in some other layout.
  checkBeirDir(dir);
  const qrelsDir = join(dir, 'qrels');
  const splits = existsSync(qrelsDir) ? readdirSync(qrelsDir).filter((f) => f.endsWith('.tsv')) : [];
  const [{ chunks, duplicates }, queries, ...judged] = await Promise.all([
    readBeirCorpus(dir),
    existsSync(join(dir, 'queries.jsonl')) ? readBeirQueries(dir) : new Map<string, string>(),
    ...splits.map((f) => readBeirQrels(join(qrelsDir, f))),
  ]);
  // A corpus of blank lines alone would answer every question with nothing found, without a word why.
  if (chunks.length === 0) throw new Error(`${join(dir, 'corpus.jsonl')} holds no documents`);
  const qrels = new Map(splits.map((f, i) => [basename(f, '.tsv'), judged[i]!]));
  return { name: basename(dir), chunks, duplicateIds: duplicates, queries, qrels, examples: trainExamples(queries, qrels.get('train'), qrels.get('test')) };
}
