/**
 * `npm run archive:lines`: the lines of an object of the raw rows' archive (README, "The raw rows'
 * archive"), unzipped, each trace's chunks with their texts (the object writes a chunk's text once,
 * with the first trace citing it). Reads a file, or stdin when none is given:
 *
 *   npx wrangler r2 object get rag-feedback-archive/<projectId>/traces/2026-12-01.jsonl.gz --pipe --local | npm run -s archive:lines
 *   npm run -s archive:lines -- day.jsonl.gz
 */
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { type ArchivedChunk, TextsRead } from '../shared/archive-texts.ts';
import { failInOneLine, parseCommand } from './cli.ts';

failInOneLine();

const [path] = parseCommand({}, 'npm run -s archive:lines -- [FILE] (an object of the archive; stdin when no FILE is given)', {
  positionals: 1,
}).positionals;
// Run bare at a terminal, it would wait without a word for input that is not coming.
if (!path && process.stdin.isTTY)
  throw new Error(
    'give an object of the archive: npm run -s archive:lines -- FILE, or pipe one in (npx wrangler r2 object get … --pipe | npm run -s archive:lines)',
  );
const gunzip = createGunzip();
// zlib's own words ("incorrect header check", "unexpected end of file") say nothing of what to give.
gunzip.on('error', (err: NodeJS.ErrnoException) => {
  throw new Error(notAnObject(path ? path : 'stdin', err));
});
const input = (path ? createReadStream(path) : process.stdin).pipe(gunzip);
/**
 * Waits while what reads the lines (a pager, a slow pipe) is behind: a day's lines with their texts
 * run to hundreds of MB, which would otherwise all wait in this process's memory.
 */
async function print(line: string): Promise<void> {
  if (!process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
}
const texts = new TextsRead();
for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
  if (!line) continue;
  const row = JSON.parse(line) as { chunks?: ArchivedChunk[] };
  if (row.chunks) texts.fill(row.chunks);
  await print(row.chunks ? JSON.stringify(row) : line);
}

/** What to say of input zlib could not unzip: nothing came (wrangler found no such object), or not an object. */
function notAnObject(source: string, err: NodeJS.ErrnoException): string {
  if (err.code === 'Z_BUF_ERROR')
    return `${source} ended before an object of the archive did (${err.message}): nothing or part of one came in; if wrangler said the key does not exist, check the object's name (<projectId>/<events|traces>/<YYYY-MM-DD>.jsonl.gz, a UTC day archived by a night after it)`;
  return `${source} is not an object of the archive, which is gzipped (${err.message}): give one as stored, a file or \`npx wrangler r2 object get … --pipe\``;
}
