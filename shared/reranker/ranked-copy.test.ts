import { describe, expect, it } from 'vitest';
import type { Candidate } from './candidate.ts';
import { readOnce } from './ranked-copy.ts';

const ranking = { rerankScore: 0.5, retrievalRank: 1, rerankerVersion: 'v1' };
/** The one chunk's copy with its ranking, as rerank() gives it back. */
const rankedCopy = <C extends Candidate>(chunk: C, r: typeof ranking) => readOnce([chunk]).ranked([r])[0]!;

describe('the ranked copy of a chunk', () => {
  it('gives a plain chunk back as the spread copy it always was', () => {
    const chunk = { chunkId: 'a', text: 'refunds', score: 0.9, title: 'Refunds', rerankScore: 7 };
    const copy = rankedCopy(chunk, ranking);
    expect(copy).toStrictEqual({ ...chunk, ...ranking });
    expect(Object.keys(copy)).toEqual(Object.keys({ ...chunk, ...ranking }));
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(chunk.rerankScore).toBe(7);
  });

  it('spreads a plain chunk with an own getter, as rerankWithModel always did: its value read once, nothing else of it copied', () => {
    let reads = 0;
    const chunk = {
      chunkId: 'a',
      get text() {
        reads++;
        return 'refunds';
      },
    };
    Object.defineProperty(chunk, 'hidden', { value: 'h', enumerable: false });
    const copy = rankedCopy(chunk, ranking);
    expect(reads).toBe(1);
    expect(Object.getOwnPropertyDescriptor(copy, 'text')).toEqual({ value: 'refunds', writable: true, enumerable: true, configurable: true });
    expect(copy).toStrictEqual({ chunkId: 'a', text: 'refunds', ...ranking });
  });

  it("keeps a class instance's prototype, its own getters and non-enumerable properties, and is writable even of a frozen chunk", () => {
    class Chunk {
      readonly chunkId = 'a';
      constructor(private readonly body: string) {
        Object.defineProperty(this, 'secret', { value: 's', enumerable: false });
        Object.defineProperty(this, 'upper', { get: () => this.body.toUpperCase(), enumerable: true });
      }
      get text(): string {
        return this.body;
      }
      describe(): string {
        return `${this.chunkId}: ${this.text}`;
      }
    }
    const chunk = Object.freeze(new Chunk('refunds'));
    const copy = rankedCopy(chunk, ranking);
    expect(copy).toBeInstanceOf(Chunk);
    expect([copy.text, copy.describe(), copy.rerankScore]).toEqual(['refunds', 'a: refunds', 0.5]);
    expect((copy as unknown as { upper: string }).upper).toBe('REFUNDS');
    expect(Object.getOwnPropertyDescriptor(copy, 'secret')).toEqual({ value: 's', writable: true, enumerable: false, configurable: true });
    (copy as { chunkId: string }).chunkId = 'b';
    expect([copy.chunkId, chunk.chunkId]).toEqual(['b', 'a']);
    expect('rerankScore' in chunk).toBe(false);
  });

  it('copies what is not an object as a spread does', () => {
    expect(rankedCopy(null as never, ranking)).toStrictEqual({ ...ranking });
  });
});
