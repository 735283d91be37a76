import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBeir } from './beir.ts';
import { formatOf } from './chunk.ts';
import { loadCorpus } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'beir-'));
mkdirSync(join(dir, 'qrels'));
writeFileSync(join(dir, 'corpus.jsonl'), '{"_id": "d1", "title": "Vitamin D", "text": "Reduces fractures."}\n\n{"_id": 2, "text": "No title here."}\n');
writeFileSync(join(dir, 'queries.jsonl'), '{"_id": "q1", "text": "vitamin d and fractures"}\n{"_id": "q2", "text": "titles"}\n');
writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\t2\t0\n');
writeFileSync(join(dir, 'qrels', 'train.tsv'), 'q2\t2\t2\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadBeir', () => {
  it('reads documents as chunks, queries, and every qrels split (with or without a header)', async () => {
    const corpus = await loadBeir(dir);
    expect(corpus.chunks.map(({ chunkId, sourceDocId, title, text }) => ({ chunkId, sourceDocId, title, text }))).toEqual([
      { chunkId: 'd1', sourceDocId: 'd1', title: 'Vitamin D', text: 'Reduces fractures.' },
      { chunkId: '2', sourceDocId: '2', title: '', text: 'No title here.' },
    ]);
    expect(corpus.queries?.get('q1')).toBe('vitamin d and fractures');
    expect(corpus.qrels?.get('test')?.get('q1')).toEqual(
      new Map([
        ['d1', 1],
        ['2', 0],
      ]),
    );
    expect(corpus.qrels?.get('train')?.get('q2')).toEqual(new Map([['2', 2]]));
    expect(corpus.chunks[0]!.sourceDocVersion).toMatch(/^[0-9a-f]{12}$/);
    // Abstracts and passages are plain text: quoted as written, never read as markdown.
    expect(corpus.chunks.map(formatOf)).toEqual(['plain', 'plain']);
  });

  it('offers judged training questions on an empty chat, never a test question', async () => {
    expect((await loadBeir(dir)).examples).toEqual(['titles']);
    // Judged in both splits, or a test question asked again under another id: neither is offered.
    const d = mkdtempSync(join(tmpdir(), 'beir-both-'));
    mkdirSync(join(d, 'qrels'));
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "d1", "text": "Reduces fractures."}\n');
    writeFileSync(
      join(d, 'queries.jsonl'),
      '{"_id": "q1", "text": "vitamin d"}\n{"_id": "q2", "text": "calcium intake"}\n{"_id": "q3", "text": "Calcium  intake?"}\n{"_id": "q4", "text": "zinc"}\n',
    );
    writeFileSync(join(d, 'qrels', 'test.tsv'), 'q1\td1\t1\nq2\td1\t1\n');
    writeFileSync(join(d, 'qrels', 'train.tsv'), 'q1\td1\t1\nq3\td1\t1\nq4\td1\t1\n');
    try {
      expect((await loadBeir(d)).examples).toEqual(['zinc']);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('offers no training question that its judgements say no document answers (grade 0)', async () => {
    const d = mkdtempSync(join(tmpdir(), 'beir-zero-'));
    mkdirSync(join(d, 'qrels'));
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "d1", "text": "Reduces fractures."}\n{"_id": "d2", "text": "Zinc."}\n');
    writeFileSync(join(d, 'queries.jsonl'), '{"_id": "q1", "text": "unanswered"}\n{"_id": "q2", "text": "zinc"}\n{"_id": "q3", "text": "fractures"}\n');
    writeFileSync(join(d, 'qrels', 'train.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t0\nq1\td2\t0\nq2\td1\t0\nq2\td2\t1\nq3\td1\t2\n');
    try {
      const corpus = await loadBeir(d);
      expect(corpus.examples).toEqual(['zinc', 'fractures']);
      // The judgements themselves are all kept: a 0 is what an evaluation counts as not relevant.
      expect(corpus.qrels?.get('train')?.get('q1')).toEqual(
        new Map([
          ['d1', 0],
          ['d2', 0],
        ]),
      );
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('keeps the later of two documents under one id, as BEIR does, and counts it', async () => {
    const d = mkdtempSync(join(tmpdir(), 'beir-dup-'));
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "d1", "text": "first"}\n{"_id": "d2", "text": "other", "title": null}\n{"_id": "d1", "text": "second"}\n');
    const corpus = await loadBeir(d);
    rmSync(d, { recursive: true, force: true });
    expect(corpus.chunks.map((c) => [c.chunkId, c.title, c.text])).toEqual([
      ['d1', '', 'second'],
      ['d2', '', 'other'],
    ]);
    expect(corpus.duplicateIds).toBe(1);
  });

  it('reads files saved with a byte order mark and CRLF line endings as the same collection', async () => {
    const d = mkdtempSync(join(tmpdir(), 'beir-bom-'));
    mkdirSync(join(d, 'qrels'));
    const windows = (text: string) => `\uFEFF${text.replaceAll('\n', '\r\n')}`;
    writeFileSync(join(d, 'corpus.jsonl'), windows('{"_id": "d 1", "title": "Vitamin D", "text": "Reduces fractures."}\n{"_id": "d2", "text": "Other."}\n'));
    writeFileSync(join(d, 'queries.jsonl'), windows('{"_id": "q1", "text": "vitamin d"}\n{"_id": "q2", "text": "other"}\n'));
    writeFileSync(join(d, 'qrels', 'test.tsv'), windows('query-id\tcorpus-id\tscore\nq1\td 1\t1\n'));
    writeFileSync(join(d, 'qrels', 'train.tsv'), windows('q2\td2\t1\n'));
    try {
      const corpus = await loadBeir(d);
      expect(corpus.chunks.map((c) => [c.chunkId, c.title, c.text])).toEqual([
        ['d 1', 'Vitamin D', 'Reduces fractures.'],
        ['d2', '', 'Other.'],
      ]);
      expect([...(corpus.queries?.keys() ?? [])]).toEqual(['q1', 'q2']);
      expect(corpus.qrels?.get('test')).toEqual(new Map([['q1', new Map([['d 1', 1]])]]));
      // The first row of a file without a header: its query id is `q2`, not the mark and `q2`.
      expect(corpus.qrels?.get('train')).toEqual(new Map([['q2', new Map([['d2', 1]])]]));
      expect(corpus.examples).toEqual(['other']);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it.each([
    ['space-separated', 'q1 d1 1'],
    ['without a score', 'q1\td1'],
    ['with a score that is not an integer', 'q1\td1\thigh'],
  ])('refuses a qrels row %s, naming the file and the line', async (_, row) => {
    const d = mkdtempSync(join(tmpdir(), 'beir-bad-'));
    mkdirSync(join(d, 'qrels'));
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "d1", "text": "one"}\n');
    writeFileSync(join(d, 'qrels', 'test.tsv'), `query-id\tcorpus-id\tscore\nq0\td1\t1\n${row}\n`);
    await expect(loadBeir(d)).rejects.toThrow(/test\.tsv:3: expected "query-id<TAB>corpus-id<TAB>integer score"/);
    rmSync(d, { recursive: true, force: true });
  });

  it.each([
    ['that is not JSON', 'corpus.jsonl', '{"_id": "d2", "text": "two"', /corpus\.jsonl:3: not valid JSON/],
    ['that is JSON but not an object', 'corpus.jsonl', 'null', /corpus\.jsonl:3: expected a JSON object, got "null"/],
    ['with an empty id', 'corpus.jsonl', '{"_id": "", "text": "two"}', /corpus\.jsonl:3: "_id" must not be empty/],
    ['without an id', 'corpus.jsonl', '{"text": "two"}', /corpus\.jsonl:3: expected "_id" \(a string or a number\), got none/],
    ['with a text that is not a string', 'corpus.jsonl', '{"_id": "d2", "text": 2}', /corpus\.jsonl:3: expected "text" to be a string, got 2/],
    ['of queries with an empty id', 'queries.jsonl', '{"_id": "", "text": "q"}', /queries\.jsonl:3: "_id" must not be empty/],
  ])('refuses a line %s, naming the file and the line (blank lines counted)', async (_, file, bad, error) => {
    const d = mkdtempSync(join(tmpdir(), 'beir-line-'));
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "d1", "text": "one"}\n');
    writeFileSync(join(d, file), `{"_id": "d1", "text": "one"}\n\n${bad}\n`);
    await expect(loadBeir(d)).rejects.toThrow(error);
    rmSync(d, { recursive: true, force: true });
  });

  it('takes a first line for the header only when it names the columns', async () => {
    const d = mkdtempSync(join(tmpdir(), 'beir-head-'));
    mkdirSync(join(d, 'qrels'));
    writeFileSync(join(d, 'corpus.jsonl'), '{"_id": "d1", "text": "one"}\n');
    writeFileSync(join(d, 'qrels', 'test.tsv'), 'q1\td1\thigh\nq2\td1\t1\n');
    await expect(loadBeir(d)).rejects.toThrow(/test\.tsv:1: expected/);
    rmSync(d, { recursive: true, force: true });
  });

  it('refuses a directory that is not in BEIR layout', async () => {
    await expect(loadBeir(join(dir, 'qrels'))).rejects.toThrow(/not a BEIR directory/);
  });

  it('says a directory that does not exist does not, and refuses a corpus without a document', async () => {
    await expect(loadCorpus(join(dir, 'no-such'))).rejects.toThrow(`${join(dir, 'no-such')} does not exist`);
    const d = mkdtempSync(join(tmpdir(), 'beir-empty-'));
    // Blank lines alone, saved on Windows.
    writeFileSync(join(d, 'corpus.jsonl'), '\uFEFF\r\n  \r\n\r\n');
    try {
      await expect(loadBeir(d)).rejects.toThrow(`${join(d, 'corpus.jsonl')} holds no documents`);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('is what loadCorpus gives for a path, and the docs for none', async () => {
    expect((await loadCorpus(dir)).chunks).toHaveLength(2);
    const docs = await loadCorpus();
    expect(docs.chunks.some((c) => c.chunkId === 'README.md#quick-start')).toBe(true);
    expect(docs.examples?.length).toBeGreaterThan(0);
  });
});
