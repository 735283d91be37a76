import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type Chunk, passage } from '../../demo/corpus/chunk.ts';
import { SuiteQuerySchema } from '../../shared/schema/eval-suite.ts';
import { curatedSuite } from './curated-suite.ts';

const chunk = (id: string, title: string, text: string): Chunk => ({ chunkId: id, sourceDocId: id, sourceDocVersion: 'v', title, text });
const chunks = [
  chunk('d1', 'Vitamin D', 'Vitamin D supplements reduce fractures in older adults.'),
  chunk('d2', 'Statins', 'Statins lower cholesterol.'),
  chunk('d3', 'Fractures', 'Fractures heal in weeks.'),
];
const judged = (id: string, text: string, relevant: string[]) => ({ id, text, relevant: new Set(relevant), judged: new Map(relevant.map((d) => [d, 1])) });

describe('the curated suite loop:eval sends', () => {
  it("lists each question's retrieved chunks as the demo logs them, judges the relevant ones, and leaves out a question retrieval misses", () => {
    const suite = curatedSuite(chunks, [judged('q1', 'vitamin D fractures', ['d1']), judged('q2', 'statins cholesterol', ['d9'])], 2);
    expect(suite.map((s) => s.id)).toEqual(['q1']);
    const [{ body }] = suite as [(typeof suite)[number]];
    expect(body.candidates.map((c) => c.chunkId)).toEqual(['d1', 'd3']);
    expect(body.candidates[0]!.text).toBe(passage(chunks[0]!));
    expect(body.judgements).toEqual([{ chunkId: 'd1', relevance: 1 }]);
    // What the collector takes.
    expect(v.safeParse(SuiteQuerySchema, body).success).toBe(true);
  });
});
