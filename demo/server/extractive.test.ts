import { describe, expect, it } from 'vitest';
import type { Chunk } from '../corpus/chunk.ts';
import { extractiveAnswer, NO_ANSWER, SAME_AGAIN } from './extractive.ts';
import { readableText, sentenceParts, sentences } from './sentences.ts';

const chunk = (chunkId: string, text: string): Chunk => ({
  chunkId,
  sourceDocId: `${chunkId}.md`,
  sourceDocVersion: 'v1',
  title: chunkId,
  text,
  format: 'markdown',
});
const one = () => 1;

describe('sentences', () => {
  it('reads markdown as prose: no code or images, table rows as cells, list items apart, inline marks dropped', () => {
    const text = [
      'Opened items can be returned within **14 days**. Unopened ones within 30 days.',
      '',
      '```sh',
      'curl /refunds',
      '```',
      '| Setting | Default |',
      '| --- | --- |',
      '| `REFUND_DAYS` | 14 days |',
      '- See [the policy](https://example.com) for details.',
      '![The refunds form, filled in](refunds.png)',
    ].join('\n');
    expect(sentences(text, 'markdown')).toEqual([
      'Opened items can be returned within 14 days.',
      'Unopened ones within 30 days.',
      'Setting — Default',
      'REFUND_DAYS — 14 days',
      'See the policy for details.',
    ]);
  });

  it('reads plain text as written: marks, brackets and lines that would be markdown are its text, its paragraphs joined up', () => {
    const text = [
      'The constructor `__init__` runs first, then __post_init__.',
      'Slow changes in [Ca(2+)](i) reflect *activity*. We also report the',
      "`gain of function' property.",
      '',
      '# of samples:   12 | 14 | 16',
    ].join('\n');
    expect(sentenceParts(text, 'plain')).toEqual([
      { text: 'The constructor `__init__` runs first, then __post_init__.', tableRow: false },
      { text: 'Slow changes in [Ca(2+)](i) reflect *activity*.', tableRow: false },
      { text: "We also report the `gain of function' property.", tableRow: false },
      { text: '# of samples: 12 | 14 | 16', tableRow: false },
    ]);
    // Read as markdown, the same text loses its marks and brackets.
    expect(sentences(text, 'markdown')[0]).toBe('The constructor init runs first, then post_init.');
  });

  it('drops fragments, measuring Chinese, Japanese and Korean at two columns a character, as they read', () => {
    expect(sentences('See p. 4. Refunds of opened items take 14 days.', 'plain')).toEqual(['Refunds of opened items take 14 days.']);
    expect(sentences('七天内可退款。见下。', 'plain')).toEqual(['七天内可退款。']);
    expect(sentences('返品は七日以内。', 'markdown')).toEqual(['返品は七日以内。']);
  });

  it('takes a text shorter than a sentence as one, whole', () => {
    expect(sentenceParts('Yes.', 'plain')).toEqual([{ text: 'Yes.', tableRow: false }]);
    expect(sentences('**7 days.**', 'markdown')).toEqual(['7 days.']);
    expect(sentences('   ', 'plain')).toEqual([]);
  });

  it('keeps a quotation whole, and cuts as usual after a quotation mark the line never closes', () => {
    const text = 'Searched without the pushback ("That\'s wrong. Is it 30 days?" for "Is it 30 days?"). Then it ranks. It says “Stop. Now.” and goes.';
    expect(sentences(text, 'markdown')).toEqual([
      'Searched without the pushback ("That\'s wrong. Is it 30 days?" for "Is it 30 days?").',
      'Then it ranks.',
      'It says “Stop. Now.” and goes.',
    ]);
    expect(sentences('A 12" board is sold here. Another one is not. It costs more.', 'markdown')).toEqual([
      'A 12" board is sold here.',
      'Another one is not.',
      'It costs more.',
    ]);
  });

  it('cuts a long document with a stray quotation mark early in it in time that grows with its length alone', () => {
    // Half a megabyte: counted again over all the pieces held, this took seconds (48 s at 1.7 MB).
    const doc = `A 12" board is sold here. ${Array.from({ length: 12_000 }, (_, i) => `Another board number ${i} is sold there.`).join(' ')}`;
    const started = performance.now();
    const cut = sentences(doc, 'markdown');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(cut).toHaveLength(12_001);
    expect(cut.slice(0, 2)).toEqual(['A 12" board is sold here.', 'Another board number 0 is sold there.']);
  });

  it("drops a structured abstract's part headings from the sentences they run into", () => {
    const abstract = 'OBJECTIVE To test risedronate. METHODS AND RESULTS We enrolled 2458 women. DNA Methylation rose.';
    expect(sentences(abstract, 'plain')).toEqual(['To test risedronate.', 'We enrolled 2458 women.', 'DNA Methylation rose.']);
  });
});

describe('a bold run-in head', () => {
  // As the README writes one: "**Plan and limits.** The nightly job needs…".
  const md =
    '**Plan and limits.** The nightly job needs a paid plan. Its slices stay within the limits.\n\n**Events through a queue:** the consumer writes in batches.';

  it('is a label, as a heading is: not quoted as a sentence of its own, nor left on the sentence it runs into', () => {
    expect(sentences(md, 'markdown')).toEqual(['The nightly job needs a paid plan.', 'Its slices stay within the limits.', 'the consumer writes in batches.']);
    const a = extractiveAnswer('what about plan limits?', [chunk('deploy', md)], one);
    expect(a.answer).toBe('The nightly job needs a paid plan. [1] Its slices stay within the limits. [1]');
  });

  it('stays in the preview, which reads as the section renders', () => {
    expect(readableText(md, 'markdown')).toBe(
      'Plan and limits. The nightly job needs a paid plan. Its slices stay within the limits.\nEvents through a queue: the consumer writes in batches.',
    );
  });

  it('is only a bold label ending a phrase: bold words starting a sentence, and plain text, are quoted as written', () => {
    expect(sentences('**Never** commit the keys file. It holds secrets.', 'markdown')).toEqual(['Never commit the keys file.', 'It holds secrets.']);
    expect(sentences('**Plan and limits.** The nightly job needs a paid plan.', 'plain')).toEqual(['**Plan and limits.** The nightly job needs a paid plan.']);
  });
});

describe('readableText', () => {
  it('gives a preview as the section reads rendered: marks and link targets dropped, code lines kept as written', () => {
    const md =
      '## Start\n\nRun **`npm start`**, see [the docs](https://x.test/d).\n\n```sh\nnpm  start -- --port 1\n```\n\n- one *item*\n\n| a | b |\n| --- | --- |\n| 1 | 2 |';
    expect(readableText(md, 'markdown')).toBe('Start\nRun npm start, see the docs.\nnpm  start -- --port 1\none *item*\na — b\n1 — 2');
  });

  it('gives plain text as written, a line per paragraph', () => {
    expect(readableText('Uses `__init__`\nand **kwargs.\n\n| a | b |\n- [x](y)', 'plain')).toBe('Uses `__init__` and **kwargs.\n| a | b | - [x](y)');
  });
});

describe('extractiveAnswer', () => {
  const chunks = [
    chunk('shipping', 'Shipping takes three days. Refunds are not about shipping.'),
    chunk('refunds', 'Opened items can be returned within 14 days for a refund. Unopened items within 30 days.'),
  ];

  it('quotes the sentences covering most of the question, each with the number of its chunk in the list given', () => {
    const a = extractiveAnswer('refund window for opened and unopened items', chunks, one, { maxSentences: 2 });
    expect(a.answer).toBe('Opened items can be returned within 14 days for a refund. [2] Unopened items within 30 days. [2]');
    expect(a.citations.map((c) => [c.n, c.chunkId])).toEqual([[2, 'refunds']]);
    expect(a.quoted).toHaveLength(2);
  });

  it("writes a quoted source's own reference markers as (n), so every [n] of the answer is one of its citations", () => {
    const papers = [chunk('fever', 'Fever is common in tropical infections [1]. See also [12].'), chunk('malaria', 'Malaria causes fever [3][4].')];
    const a = extractiveAnswer('fever tropical malaria', papers, one, { maxSentences: 2 });
    expect(a.answer).toBe('Fever is common in tropical infections (1). [1] Malaria causes fever (3)(4). [2]');
    expect([...a.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))).toEqual(a.citations.map((c) => c.n));
    // What was quoted is the corpus's own sentence, which a regenerate leaves out and the preview finds.
    expect(a.quoted).toEqual(['Fever is common in tropical infections [1].', 'Malaria causes fever [3][4].']);
  });

  it('lists the sources by number, whichever was quoted first', () => {
    const weight = (t: string) => (t === 'refund' ? 2 : 1);
    const a = extractiveAnswer('refund shipping', chunks, weight, { maxSentences: 2 });
    expect(a.answer.indexOf('[2]')).toBeLessThan(a.answer.indexOf('[1]'));
    expect(a.citations.map((c) => c.n)).toEqual([1, 2]);
  });

  it('quotes for what a pushback asks, not for its words saying the answer was wrong', () => {
    const wrong = [chunk('errors', 'Wrong items are flagged.'), ...chunks];
    const a = extractiveAnswer("That's wrong. Opened items?", wrong, one, { maxSentences: 1 });
    expect(a.citations.map((c) => c.chunkId)).toEqual(['refunds']);
  });

  it('weighs terms as told: a rare term decides', () => {
    const weight = (t: string) => (t === 'shipping' ? 5 : 1);
    const a = extractiveAnswer('shipping refunds', chunks, weight, { maxSentences: 1 });
    expect(a.citations[0]!.chunkId).toBe('shipping');
  });

  it('weighs terms given with their weights as searched: one of an earlier turn at a lower weight counts for less', () => {
    const docs = [chunk('refunds', 'Opened items can be refunded within 14 days. Shipping is free over 50 euros.')];
    expect(extractiveAnswer('refunded shipping', docs, one).quoted).toHaveLength(2);
    const searched = new Map([
      ['refunded', 1],
      ['shipping', 0.25],
    ]);
    expect(extractiveAnswer(searched, docs, one).answer).toBe('Opened items can be refunded within 14 days. [1]');
  });

  it('quotes other sentences when told to avoid the earlier ones, and the same again, saying so, when none is left', () => {
    const first = extractiveAnswer('refund opened items days', chunks, one, { maxSentences: 1 });
    const second = extractiveAnswer('refund opened items days', chunks, one, { maxSentences: 1, exclude: new Set(first.quoted) });
    expect(second.quoted).not.toEqual(first.quoted);
    const all = new Set(chunks.flatMap((c) => sentences(c.text, 'markdown')));
    const again = extractiveAnswer('refund opened items days', chunks, one, { maxSentences: 1, exclude: all });
    expect(again.quoted).toEqual(first.quoted);
    expect(again.answer).toBe(`${SAME_AGAIN} ${first.answer}`);
    expect(second.answer.startsWith(SAME_AGAIN)).toBe(false);
  });

  it('passes over a sentence too long to fit for a shorter one after it', () => {
    const long = `Opened items ${'really '.repeat(30)}can be refunded.`;
    const docs = [chunk('refunds', `Opened items can be returned within 14 days. ${long} Opened items need a receipt.`)];
    const a = extractiveAnswer('opened items', docs, one, { maxChars: 100 });
    expect(a.quoted).toEqual(['Opened items can be returned within 14 days.', 'Opened items need a receipt.']);
  });

  it('quotes a document with no sentence ends up to a word within 2,000 characters, so its citation stays in the answer', () => {
    const text = `refunds ${'opened items may be returned with a receipt '.repeat(1_200)}`;
    const a = extractiveAnswer('refunds', [chunk('refunds', text)], one);
    expect(a.answer.length).toBeLessThanOrEqual(2_000 + ' [1]'.length + 1);
    expect(a.answer).toMatch(/^refunds opened items .* [a-z]+… \[1\]$/);
    expect(a.quoted).toEqual([text.trim()]);
  });

  it('prefers prose to a table row that covers as much of the question', () => {
    const docs = [chunk('limits', '| Review queue | first load | 60 KB |'), chunk('queue', 'The review queue shows the highest expected value first.')];
    const a = extractiveAnswer('review queue first', docs, one, { maxSentences: 1 });
    expect(a.citations.map((c) => c.chunkId)).toEqual(['queue']);
  });

  it('prefers a sentence that says something to one leading into a list', () => {
    const docs = [
      chunk('gate', 'The gate promotes a model when:\n- it gains on the eval sets\n- no layer loses'),
      chunk('gate-2', 'The gate promotes a model only if it gains on the eval sets.'),
    ];
    const a = extractiveAnswer('when does the gate promote a model', docs, one, { maxSentences: 1 });
    expect(a.quoted).toEqual(['The gate promotes a model only if it gains on the eval sets.']);
  });

  it('quotes no sentence that covers less than half as much of the question as the best one', () => {
    const docs = [
      chunk('redaction', 'Phone numbers and e-mail addresses are redacted before storing.'),
      chunk('charts', 'Every chart has its numbers in a table beside it.'),
    ];
    const a = extractiveAnswer('are phone numbers redacted', docs, one);
    expect(a.citations.map((c) => c.chunkId)).toEqual(['redaction']);
    expect(extractiveAnswer('numbers', docs, one).citations.map((c) => c.chunkId)).toEqual(['redaction', 'charts']);
  });

  it('measures a regenerate against the best sentence it has left, not the one it may not quote again', () => {
    const docs = [chunk('refunds', 'Opened items can be refunded within 14 days of delivery. A refund goes back to the card.')];
    const first = extractiveAnswer('refund opened items within days', docs, one, { maxSentences: 1 });
    expect(first.quoted).toEqual(['Opened items can be refunded within 14 days of delivery.']);
    const again = extractiveAnswer('refund opened items within days', docs, one, { maxSentences: 1, exclude: new Set(first.quoted) });
    expect(again.answer).toBe('A refund goes back to the card. [1]');
  });

  it('says so when no sentence shares a term with the question', () => {
    expect(extractiveAnswer('warranty', chunks, one)).toEqual({ answer: NO_ANSWER, citations: [], quoted: [] });
    expect(extractiveAnswer('the of and', chunks, one).answer).toBe(NO_ANSWER);
  });

  it('quotes a chunk not known to be markdown (a BEIR document) as written, and previews it so', () => {
    const paper: Chunk = {
      chunkId: '23746332',
      sourceDocId: '23746332',
      sourceDocVersion: 'v1',
      title: 'Calcium imaging',
      text: 'Slow changes in [Ca(2+)](i) reflect increased neuronal activity. Calling `__init__` twice is harmless.',
    };
    const a = extractiveAnswer('activity init', [paper], one, { maxSentences: 2 });
    expect(a.answer).toBe('Slow changes in [Ca(2+)](i) reflect increased neuronal activity. [1] Calling `__init__` twice is harmless. [1]');
    expect(a.citations[0]!.snippet).toBe(paper.text);
  });

  it('quotes a document that is its title alone by its title, however short, and previews it so', () => {
    const docs: Chunk[] = [
      { chunkId: 'd1', sourceDocId: 'd1', sourceDocVersion: 'v1', title: 'Vitamin D', text: '' },
      { chunkId: 'd2', sourceDocId: 'd2', sourceDocVersion: 'v1', title: 'Calcium', text: 'Calcium intake matters for bones and for vitamin uptake.' },
    ];
    const a = extractiveAnswer('vitamin d', docs, one, { maxSentences: 1 });
    expect(a.answer).toBe('Vitamin D [1]');
    expect(a.citations).toEqual([{ n: 1, chunkId: 'd1', sourceDocId: 'd1', title: 'Vitamin D', snippet: 'Vitamin D' }]);
    expect(a.quoted).toEqual(['Vitamin D']);
  });

  it('quotes a document whose whole text is shorter than a sentence', () => {
    const docs: Chunk[] = [{ chunkId: 'd1', sourceDocId: 'd1', sourceDocVersion: 'v1', title: 'Returns', text: 'Yes.' }];
    expect(extractiveAnswer('yes', docs, one).answer).toBe('Yes. [1]');
  });

  it('keeps the preview short', () => {
    const a = extractiveAnswer('long', [chunk('long', `A long text. ${'word '.repeat(400)}`)], one);
    expect(a.citations[0]!.snippet.length).toBeLessThanOrEqual(701);
    expect(a.citations[0]!.snippet.endsWith('…')).toBe(true);
  });

  it("previews a chunk from the line it quoted when that lies past the preview's start", () => {
    const text = `${'Filler words here. '.repeat(60)}\n\nThe warranty covers accidental damage. It lasts two years.`;
    const a = extractiveAnswer('accidental damage', [chunk('w', text)], one, { maxSentences: 1 });
    expect(a.quoted).toEqual(['The warranty covers accidental damage.']);
    expect(a.citations[0]!.snippet).toBe('…The warranty covers accidental damage. It lasts two years.');
    const near = extractiveAnswer('filler', [chunk('f', text)], one, { maxSentences: 1 });
    expect(near.citations[0]!.snippet.startsWith('Filler words here.')).toBe(true);
  });
});
