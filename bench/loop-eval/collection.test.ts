import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { queryKey } from '../../shared/terms.ts';
import { MAX_QUERY_CHARS } from '../../shared/thresholds.ts';
import { loadCollection, requireValidation } from './collection.ts';
import { rng, stableHash } from './random.ts';
import { population } from './traffic.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A BEIR directory: every query judges document d1 relevant unless `qrels` says otherwise. */
function beir(queries: Record<string, string>, split: Record<string, 'train' | 'test'>, qrels: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'collection-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'qrels'));
  writeFileSync(join(dir, 'corpus.jsonl'), '{"_id": "d1", "title": "", "text": "one"}\n{"_id": "d2", "title": "", "text": "two"}\n');
  writeFileSync(
    join(dir, 'queries.jsonl'),
    Object.entries(queries)
      .map(([id, text]) => `${JSON.stringify({ _id: id, text })}\n`)
      .join(''),
  );
  for (const s of ['train', 'test'] as const)
    writeFileSync(
      join(dir, 'qrels', `${s}.tsv`),
      `query-id\tcorpus-id\tscore\n${Object.keys(split)
        .filter((id) => split[id] === s)
        .map((id) => qrels[id] ?? `${id}\td1\t1\n`)
        .join('')}`,
    );
  return dir;
}

/** Ids whose validation hash falls below, or at or above, `share`. */
const idsBy = (share: number) => {
  const ids = Array.from({ length: 50 }, (_, i) => `q${i}`);
  const below = ids.filter((id) => stableHash(`validation:${id}`) < share);
  return { validation: below[0]!, traffic: ids.filter((id) => !below.includes(id)) };
};

describe('the simulation split', () => {
  it('never asks a test question, by id or in the same words under another id', async () => {
    const dir = beir(
      {
        t1: 'Vitamin D reduces fractures.',
        t2: 'Statins lower cholesterol',
        a: 'fractures: vitamin D reduces',
        b: 'statins lower cholesterol',
        c: 'Aspirin thins blood',
      },
      { t1: 'test', t2: 'test', a: 'train', b: 'train', c: 'train' },
    );
    const c = await loadCollection(dir, 0);
    expect(c.traffic.map((q) => q.id)).toEqual(['c']);
    expect(c.test.map((q) => q.id)).toEqual(['t1', 't2']);
    expect(c.excluded.sameAsTest).toBe(2);
  });

  it("keeps out of traffic a train question in a validation question's words", async () => {
    const { validation, traffic } = idsBy(0.5);
    const [same, other] = traffic;
    const dir = beir(
      { t: 'a test question', [validation]: 'how long do refunds take', [same!]: 'refunds: how long do they take', [other!]: 'shipping to canada' },
      { t: 'test', [validation]: 'train', [same!]: 'train', [other!]: 'train' },
    );
    const c = await loadCollection(dir, 0.5);
    expect(c.validation.map((q) => q.id)).toEqual([validation]);
    expect(c.traffic.map((q) => q.id)).toEqual([other]);
    expect(c.excluded.sameAsValidation).toBe(1);
  });

  it('never has users type a test or validation question, not even when a rewording leaves a word out', async () => {
    const { validation, traffic } = idsBy(0.5);
    const [a, b] = traffic;
    const dir = beir(
      {
        t: 'aldh1 expression poorer prognosis',
        [validation]: 'statins lower cholesterol levels',
        [a!]: 'aldh1 expression poorer prognosis tumours',
        [b!]: 'statins lower blood cholesterol levels',
      },
      { t: 'test', [validation]: 'train', [a!]: 'train', [b!]: 'train' },
    );
    const c = await loadCollection(dir, 0.5);
    expect(c.traffic.map((q) => q.id).sort()).toEqual([a, b].sort());
    const heldOut = new Set([...c.test, ...c.validation].map((q) => queryKey(q.text)));
    const typed = new Set<string>();
    for (let seed = 1; seed <= 50; seed++) {
      const r = rng(seed);
      const users = population(c, r);
      for (let i = 0; i < 20; i++) {
        const q = users.draw(r);
        typed.add(users.phrase(r, q));
        typed.add(users.reword(r, q));
      }
    }
    expect(typed.size).toBeGreaterThan(20);
    expect([...typed].filter((text) => heldOut.has(queryKey(text)))).toEqual([]);
  });

  it("carves a curated share out of traffic, never a test or validation question, and keeps out a train question in a curated one's words", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `q${i}`);
    const isCurated = (id: string) => stableHash(`curated:${id}`) < 0.5;
    const isValidation = (id: string) => stableHash(`validation:${id}`) < 0.3;
    const curatedId = ids.find((id) => isCurated(id) && !isValidation(id))!;
    const sameWords = ids.find((id) => !isCurated(id) && !isValidation(id))!;
    const queries: Record<string, string> = { t: 'a test question' };
    const split: Record<string, 'train' | 'test'> = { t: 'test' };
    for (const id of ids) {
      queries[id] = id === sameWords ? `${curatedId} question words` : `question words ${id}`;
      split[id] = 'train';
    }
    const dir = beir(queries, split);
    const c = await loadCollection(dir, 0.3, 0.5);
    const idsOf = (qs: readonly { id: string }[]) => qs.map((q) => q.id);
    const [traffic, validation, curated] = [idsOf(c.traffic), idsOf(c.validation), idsOf(c.curated)];
    expect(curated).toContain(curatedId);
    expect(curated.every((id) => isCurated(id) && !isValidation(id))).toBe(true);
    expect(validation.every(isValidation)).toBe(true);
    expect(traffic.some((id) => isCurated(id) || isValidation(id) || id === sameWords)).toBe(false);
    expect(c.excluded.sameAsCurated).toBe(1);
    expect(traffic.length + validation.length + curated.length + 1).toBe(ids.length);
    // Without a share, nothing is curated and traffic keeps every other question.
    expect((await loadCollection(dir, 0.3)).curated).toEqual([]);
  });

  it('counts what it cannot use: no text, no relevant document, too long to ask', async () => {
    const dir = beir(
      { t: 'a test question', a: 'asked', long: 'x '.repeat(MAX_QUERY_CHARS), zero: 'judged not relevant only' },
      { t: 'test', a: 'train', long: 'train', zero: 'train', notext: 'train' },
      { zero: 'zero\td1\t0\n' },
    );
    const c = await loadCollection(dir, 0);
    expect(c.traffic.map((q) => q.id)).toEqual(['a']);
    expect(c.excluded).toMatchObject({ tooLongToAsk: 1, unusable: { train: 2, test: 0 }, noneRelevantInTest: 0 });
  });

  it("keeps a test query no document is relevant for, scoring 0 as BEIR's evaluation does, and never asks it in other words", async () => {
    const dir = beir(
      { t: 'a test question', zero: 'Statins lower cholesterol', a: 'asked', same: 'statins lower cholesterol', notext: '' },
      { t: 'test', zero: 'test', notext: 'test', a: 'train', same: 'train' },
      { zero: 'zero\td1\t0\n' },
    );
    const c = await loadCollection(dir, 0);
    expect(c.test.map((q) => [q.id, q.relevant.size])).toEqual([
      ['t', 1],
      ['zero', 0],
    ]);
    expect(c.traffic.map((q) => q.id)).toEqual(['a']);
    expect(c.excluded).toMatchObject({ sameAsTest: 1, unusable: { train: 0, test: 1 }, noneRelevantInTest: 1 });
  });

  it('counts relevant judgements naming a document the corpus lacks, and keeps them, as trec_eval does', async () => {
    const dir = beir({ a: 'asked', b: 'also asked', t: 'a test question' }, { a: 'train', b: 'train', t: 'test' }, { b: 'b\td1\t1\nb\tgone\t2\n' });
    const c = await loadCollection(dir, 0);
    expect(c.excluded.notInCorpus).toEqual({ train: 1, test: 0 });
    expect(c.traffic.find((q) => q.id === 'b')?.relevant).toEqual(new Set(['d1', 'gone']));
  });

  it("refuses a split none of whose relevant documents is in the corpus: the qrels' ids are not corpus.jsonl's", async () => {
    const dir = beir({ a: 'asked', t: 'a test question' }, { a: 'train', t: 'test' }, { t: 't\tdoc-1\t1\n' });
    await expect(loadCollection(dir, 0)).rejects.toThrow(/none of the 1 documents qrels\/test.tsv judges relevant is in corpus.jsonl \(such as "doc-1"\)/);
  });

  it('lets a command that chooses on validation refuse a collection whose validation share holds no query', async () => {
    const { validation, traffic } = idsBy(0.2);
    const queries = Object.fromEntries([...traffic.slice(0, 3), 't'].map((id) => [id, `question ${id}`]));
    const split = Object.fromEntries(Object.keys(queries).map((id) => [id, id === 't' ? ('test' as const) : ('train' as const)]));
    const none = await loadCollection(beir(queries, split), 0.2);
    expect(() => requireValidation(none, 0.2)).toThrow(/the validation share \(0.2 of 3 usable train queries\) holds none.*--validation-share/);
    const some = await loadCollection(beir({ ...queries, [validation]: 'held out' }, { ...split, [validation]: 'train' }), 0.2);
    expect(() => requireValidation(some, 0.2)).not.toThrow();
  });

  it('refuses a collection whose train split leaves no question to ask, as when it repeats the test split', async () => {
    const dir = beir({ a: 'asked', b: 'also asked' }, { a: 'test', b: 'test' });
    const test = readFileSync(join(dir, 'qrels', 'test.tsv'), 'utf8');
    writeFileSync(join(dir, 'qrels', 'train.tsv'), test);
    await expect(loadCollection(dir, 0)).rejects.toThrow(/no train query is left for users to ask \(of 2, 2 are test queries/);
  });

  it('refuses a collection whose test split leaves no usable query', async () => {
    const dir = beir({ a: 'asked', t: 'judged not relevant only' }, { a: 'train', t: 'test' }, { t: 't\td1\t0\n' });
    await expect(loadCollection(dir, 0)).rejects.toThrow(/no test query has a text in queries.jsonl and a document graded above 0/);
  });
});
