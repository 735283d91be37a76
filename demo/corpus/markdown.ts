/**
 * Cuts a markdown document into chunks at its headings, so each chunk is one section a reader
 * would cite; a section longer than `maxChars` is cut further at blank lines, never inside a
 * fenced code block, and a table or list longer than that at its rows or items (each part of a
 * table with its header). Pure string work, so it is tested without files.
 */
import type { Chunk } from './chunk.ts';
import { contentVersion } from './version.ts';

export interface MarkdownChunkOptions {
  /** Longest chunk in characters before a section is cut at paragraph breaks. */
  maxChars?: number;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

/** A heading as plain text: no inline code marks, link targets or emphasis. */
export const plainHeading = (text: string): string =>
  text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .trim();

/** A GitHub-style anchor: lower case, runs of anything but a-z and 0-9 as one dash. */
export const slug = (text: string): string =>
  plainHeading(text)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

interface Section {
  path: string[];
  lines: string[];
}

function sections(markdown: string): Section[] {
  const out: Section[] = [];
  const path: string[] = [];
  let current: Section = { path: [], lines: [] };
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (FENCE.test(line)) fenced = !fenced;
    const heading = fenced ? null : HEADING.exec(line);
    if (!heading) {
      current.lines.push(line);
      continue;
    }
    out.push(current);
    const level = heading[1]!.length;
    path.length = level - 1;
    path[level - 1] = plainHeading(heading[2]!);
    current = { path: path.filter(Boolean), lines: [] };
  }
  out.push(current);
  return out;
}

const TABLE_ROW = /^\s*\|/;
const TABLE_RULE = /^\s*\|[\s:|-]+\|\s*$/;
const LIST_ITEM = /^(?:[-*+]|\d+[.)])\s/;

/** A table row without the spaces that align its columns in the source: they are no text. */
const unpadded = (line: string): string => (TABLE_ROW.test(line) ? line.trim().replace(/ {2,}/g, ' ') : line);

/**
 * A block too long for one chunk cut where a reader would: a table at its rows, each part led by
 * the header and its rule; a list at its items (an item's continued lines stay with it). Any
 * other block stays whole.
 */
function split(block: string, max: number): string[] {
  if (block.length <= max) return [block];
  const lines = block.split('\n');
  const table = lines.length > 2 && TABLE_ROW.test(lines[0]!) && TABLE_RULE.test(lines[1]!);
  const head = table ? lines.slice(0, 2) : [];
  const units: string[][] = [];
  for (const line of lines.slice(head.length)) {
    if (!units.length || table || LIST_ITEM.test(line)) units.push([line]);
    else units.at(-1)!.push(line);
  }
  if (units.length < 2) return [block];
  const out: string[][] = [];
  for (const unit of units) {
    const last = out.at(-1);
    if (last && [...last, ...unit].join('\n').length <= max) last.push(...unit);
    else out.push([...head, ...unit]);
  }
  return out.map((part) => part.join('\n'));
}

/** Paragraphs (blank-line separated, code fences kept whole) packed into pieces of at most `max` characters where possible. */
function pieces(text: string, max: number): string[] {
  const blocks: string[] = [];
  let block: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    if (!fenced && line.trim() === '') {
      if (block.length) blocks.push(block.join('\n'));
      block = [];
    } else block.push(fenced ? line : unpadded(line));
  }
  if (block.length) blocks.push(block.join('\n'));
  const out: string[] = [];
  for (const b of blocks.flatMap((b) => split(b, max))) {
    const last = out.at(-1);
    if (last !== undefined && last.length + 2 + b.length <= max) out[out.length - 1] = `${last}\n\n${b}`;
    else out.push(b);
  }
  return out;
}

/** The chunks of one markdown document; `sourceDocId` prefixes every chunk id (`README.md#quick-start`). */
export function chunkMarkdown(sourceDocId: string, markdown: string, options: MarkdownChunkOptions = {}): Chunk[] {
  const max = options.maxChars ?? 1500;
  const sourceDocVersion = contentVersion(markdown);
  const chunks: Chunk[] = [];
  const used = new Set<string>();
  sections(markdown).forEach((section, i) => {
    const text = section.lines.join('\n').trim();
    if (!text) return;
    const leaf = section.path.at(-1);
    const anchor = (leaf && slug(leaf)) || `section-${i}`;
    const title = section.path.join(' › ') || sourceDocId;
    const parts = pieces(text, max);
    parts.forEach((piece, part) => {
      let chunkId = `${sourceDocId}#${anchor}${part ? `-${part + 1}` : ''}`;
      for (let n = 2; used.has(chunkId); n++) chunkId = `${sourceDocId}#${anchor}-${n}`;
      used.add(chunkId);
      // Parts of one section are told apart in a list of sources.
      chunks.push({
        chunkId,
        sourceDocId,
        sourceDocVersion,
        title: parts.length > 1 ? `${title} (${part + 1}/${parts.length})` : title,
        text: piece,
        format: 'markdown',
      });
    });
  });
  return chunks;
}
