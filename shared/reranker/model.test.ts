import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { idRecord } from './id-record.ts';
import { parseRerankerModel, RERANKER_FORMAT, type RerankerModel, RerankerModelSchema, StrictRerankerModelSchema } from './model.ts';
import { rerankWithModel } from './rerank.ts';
import { packVector } from './vectors.ts';

const model = (overrides: Partial<RerankerModel> = {}): RerankerModel => ({
  format: RERANKER_FORMAT,
  version: 'v1',
  createdAt: Date.UTC(2026, 10, 1),
  features: ['document_prior'],
  weights: [1],
  mean: [0],
  scale: [1],
  priors: { chunks: {}, documents: {} },
  engagement: { baseRate: 0.1, chunks: {}, documents: {} },
  memory: { queries: [], judgements: [] },
  examination: [1, 0.6],
  training: { confirmed: 30, queries: 10, pairs: 40 },
  ...overrides,
});

/** The first issue's dot path and message, or 'valid'. */
const verdict = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? 'valid' : `${v.getDotPath(result.issues[0]) ?? ''}: ${result.issues[0].message}`;
};

describe('idRecord', () => {
  // As JSON.parse reads them: `__proto__` is then an own key, as `constructor` and `prototype` are.
  const ids = JSON.parse('{"constructor":[5,0],"prototype":[0,5],"__proto__":[3,0],"c1":[1,1]}');

  it('keeps every id as an own key, those named like Object.prototype’s properties included', () => {
    const out = v.parse(idRecord(v.tuple([v.number(), v.number()])), ids);
    expect(Object.entries(out)).toEqual([
      ['constructor', [5, 0]],
      ['prototype', [0, 5]],
      ['__proto__', [3, 0]],
      ['c1', [1, 1]],
    ]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(out))).toEqual(ids);
  });

  it('names the id of a bad value, whatever the id, and refuses what is not an object', () => {
    const schema = idRecord(v.tuple([v.pipe(v.number(), v.minValue(0, 'must be 0 or more')), v.number()]));
    expect(verdict(schema, JSON.parse('{"c1":[1,0],"__proto__":[-1,0]}'))).toBe('__proto__.0: must be 0 or more');
    expect(verdict(schema, [[1, 0]])).toBe(': must be an object');
    expect(verdict(schema, null)).toBe(': must be an object');
  });
});

describe('the artifact schema', () => {
  it('keeps priors and engagement of documents and chunks named constructor, prototype or __proto__, and ranks by them', () => {
    const documents = '{"constructor":[5,0],"prototype":[0,5],"__proto__":[3,0]}';
    const text = JSON.stringify(model()).replace('"documents":{}', `"documents":${documents}`);
    const parsed = parseRerankerModel(text);
    expect(JSON.stringify(parsed.priors.documents)).toBe(documents);

    const chunks = ['prototype', 'toString', '__proto__', 'constructor'].map((doc, i) => ({ chunkId: `c${i}`, sourceDocId: doc, text: 'x', score: 1 }));
    // Judged relevant five times, three times, never judged, judged not relevant five times.
    expect(rerankWithModel(parsed, 'q', chunks).map((c) => c.sourceDocId)).toEqual(['constructor', '__proto__', 'toString', 'prototype']);
  });

  it("refuses a judged query's vector that is not base64, which ranking could not unpack, and takes one packVector wrote", () => {
    const withVector = (vector: string) => model({ memory: { queries: [{ terms: ['refund'], vector }], judgements: [] } });
    expect(() => parseRerankerModel(withVector('not base64!!'))).toThrow('not a reranker model: memory.queries.0.vector: must be base64');
    expect(() => parseRerankerModel(withVector('AAE'))).toThrow('memory.queries.0.vector: must be base64');
    const packed = parseRerankerModel(withVector(packVector(new Float32Array([0.5, -1, 0.25]))));
    expect(() => rerankWithModel(packed, 'refund', [{ chunkId: 'c', text: 'refund', score: 1 }])).not.toThrow();
  });

  it('refuses a field it does not know when taking an artifact in, and drops it when reading one back', () => {
    const typo = { ...model(), wieghts: [2] };
    expect(verdict(StrictRerankerModelSchema, typo)).toBe('wieghts: Invalid key: Expected never but received "wieghts"');
    expect(verdict(RerankerModelSchema, typo)).toBe('valid');
    expect(v.parse(RerankerModelSchema, typo)).toEqual(model());

    const nested = { ...model(), memory: { queries: [{ terms: [], vectr: 'AAE=' }], judgements: [] } };
    expect(verdict(StrictRerankerModelSchema, nested)).toMatch(/^memory\.queries\.0\.vectr: /);
    const extra = { ...model(), priors: { chunks: { c1: [1, 0, 7] }, documents: {} } };
    expect(verdict(StrictRerankerModelSchema, extra)).toMatch(/^priors\.chunks\.c1\.2: /);
    expect(v.parse(RerankerModelSchema, extra).priors.chunks).toEqual({ c1: [1, 0] });
  });

  it('refuses a version of . or .. when taking an artifact in, as no URL path can hold it, and reads one stored before', () => {
    for (const version of ['.', '..']) {
      expect(verdict(StrictRerankerModelSchema, model({ version }))).toBe('version: cannot be . or .., which a URL path cannot name');
      expect(parseRerankerModel(model({ version })).version).toBe(version);
    }
    expect(verdict(StrictRerankerModelSchema, model({ version: '...' }))).toBe('valid');
  });
});
