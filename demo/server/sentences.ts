/**
 * Sentences of a chunk as a reader would quote them: markdown reduced to prose (no code blocks,
 * table rows as "cell — cell", list items and headings as their own lines, images and inline marks dropped),
 * plain text as written (its paragraphs joined up and spaces collapsed), then prose cut at sentence ends.
 */
import type { TextFormat } from '../corpus/chunk.ts';

const FENCE = /^\s*(```|~~~)/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}/;
const LIST_MARK = /^\s*(?:[-*+]|\d+[.)])\s+/;
/** A paragraph's bold run-in head (`**Plan and limits.** The job…`): a label, as a heading is, not a sentence of the paragraph. */
const RUN_IN_HEAD = /^(?:\*\*|__)[^*_]+[.:](?:\*\*|__)\s+(?=\S)/;

/** Inline markdown as plain text: images dropped (their alt text describes a picture), link text without its target, code and emphasis without their marks. */
const inlinePlain = (line: string): string =>
  line
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** A sentence, and whether it is a table row (which, quoted alone, has lost its header). */
export interface Sentence {
  text: string;
  tableRow: boolean;
}

/** Plain text's paragraphs (blank-line separated), each on one line with its spaces collapsed: nothing in it is markup. */
const plainLines = (text: string): Sentence[] =>
  text
    .split(/\r?\n(?:[^\S\r\n]*\r?\n)+/)
    .map((paragraph) => ({ text: paragraph.replace(/\s+/g, ' ').trim(), tableRow: false }))
    .filter((l) => l.text);

/**
 * Lines of prose: of markdown, paragraphs joined, list items, table rows and headings kept apart;
 * `asRendered` (a preview) keeps code blocks (their lines as written) and paragraphs' run-in heads,
 * which quoting leaves out; of plain text, its paragraphs.
 */
function proseLines(text: string, format: TextFormat, asRendered = false): Sentence[] {
  if (format === 'plain') return plainLines(text);
  const out: (Sentence & { code?: true })[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length) out.push({ text: paragraph.join(' '), tableRow: false });
    paragraph = [];
  };
  let fenced = false;
  for (const raw of text.split(/\r?\n/)) {
    if (FENCE.test(raw)) {
      fenced = !fenced;
      endParagraph();
      continue;
    }
    if (fenced) {
      if (asRendered && raw.trim()) out.push({ text: raw.trimEnd(), tableRow: false, code: true });
      continue;
    }
    const line = raw.trim();
    if (!line || TABLE_RULE.test(line)) {
      endParagraph();
    } else if (line.startsWith('|')) {
      endParagraph();
      const cells = line
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim())
        .filter(Boolean);
      out.push({ text: cells.join(' — '), tableRow: true });
    } else if (LIST_MARK.test(line) || line.startsWith('#')) {
      endParagraph();
      paragraph.push(line.replace(LIST_MARK, '').replace(/^#+\s*/, ''));
    } else {
      const prose = line.replace(/^>\s?/, '');
      paragraph.push(paragraph.length || asRendered ? prose : prose.replace(RUN_IN_HEAD, ''));
    }
  }
  endParagraph();
  return out.map(({ text, tableRow, code }) => ({ text: code ? text : inlinePlain(text), tableRow })).filter((l) => l.text);
}

/** The chunk as a reader sees it rendered: a line per paragraph (of markdown, per list item, heading, table row and code line too, without its marks). */
export const readableText = (text: string, format: TextFormat): string =>
  proseLines(text, format, true)
    .map((l) => l.text)
    .join('\n');

/**
 * A sentence ends at . ! ? before a space and a capital, digit, bracket or quote (a grave accent
 * too, which plain text opens a quotation with: `gain of function'), or at a CJK full stop.
 */
const SENTENCE_END = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}("'“[`])|(?<=[。！？])/u;

/** The headings of structured abstracts (PubMed's), which run into the first sentence of their part. */
const ABSTRACT_LABEL =
  /^(?:(?:BACKGROUND|CONTEXT|INTRODUCTION|OBJECTIVES?|AIMS?|PURPOSE|DESIGN|SETTINGS?|PARTICIPANTS|PATIENTS|METHODS?|MEASUREMENTS|INTERVENTIONS?|RESULTS|FINDINGS|INTERPRETATION|CONCLUSIONS?|SIGNIFICANCE)(?:\s+(?:AND|&|\/)\s+|\s*[:.]?\s+))+/;

/** A text's quotation marks: straight ones, and curly ones opening and closing. */
const quoteMarks = (text: string) => ({
  straight: text.match(/"/g)?.length ?? 0,
  opening: text.match(/“/g)?.length ?? 0,
  closing: text.match(/”/g)?.length ?? 0,
});

/**
 * A line's sentences, a quotation kept whole ("That's wrong. Is it 30 days?" is quoted, not two
 * sentences); a quotation the line never closes is a stray mark, and its pieces stay as cut. The
 * marks of the pieces held are counted as each comes: counted again over all of them, a stray mark
 * early in a long document would cost a pass over the rest for every sentence after it.
 */
function lineSentences(line: string): string[] {
  const out: string[] = [];
  let held: string[] = [];
  let marks = { straight: 0, opening: 0, closing: 0 };
  for (const piece of line.split(SENTENCE_END)) {
    held.push(piece);
    const own = quoteMarks(piece);
    marks = { straight: marks.straight + own.straight, opening: marks.opening + own.opening, closing: marks.closing + own.closing };
    // Open while a straight mark is unpaired or more curly ones opened than closed.
    if (marks.straight % 2 === 0 && marks.opening <= marks.closing) {
      out.push(held.join(' '));
      held = [];
      marks = { straight: 0, opening: 0, closing: 0 };
    }
  }
  return [...out, ...held];
}

/** Shorter than this, a piece is a fragment (a stray "e.g.", a figure's number), not a sentence. */
const MIN_SENTENCE_WIDTH = 12;
/** Characters a line of text shows two columns wide (Chinese, Japanese, Korean), each about a word. */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60]/gu;
/** A text's width as it reads: a wide character counts as two, so "七天内可退款。" is a sentence. */
const width = (text: string) => text.length + (text.match(WIDE)?.length ?? 0);

/**
 * The chunk's sentences, in order, each saying whether it is a table row; fragments are dropped.
 * A text shorter than a sentence ("Yes." or "7 days.") is one, whole: it is all the text says.
 */
export function sentenceParts(text: string, format: TextFormat): Sentence[] {
  const lines = proseLines(text, format);
  const whole = lines.map((l) => l.text).join(' ');
  if (whole && width(whole) < MIN_SENTENCE_WIDTH) return [{ text: whole, tableRow: lines.every((l) => l.tableRow) }];
  return lines
    .flatMap(({ text: line, tableRow }) => lineSentences(line).map((s) => ({ text: s.trim().replace(ABSTRACT_LABEL, ''), tableRow })))
    .filter((s) => width(s.text) >= MIN_SENTENCE_WIDTH);
}

/** The chunk's sentences' texts, in order. */
export const sentences = (text: string, format: TextFormat): string[] => sentenceParts(text, format).map((s) => s.text);
