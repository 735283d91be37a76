import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPieces, jsonStream } from './json-stream.ts';

const streamed = async (value: unknown) => new Response(jsonStream(value)).text();

describe('JSON written piece by piece', () => {
  it('is what JSON.stringify writes, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value));
      }),
    );
  });

  it('leaves out what JSON.stringify leaves out, and writes null where it does', () => {
    const value = { a: undefined, b: [undefined, () => 1, 2], c: { d: null, e: 'x' } };
    expect([...jsonPieces(value)].join('')).toBe(JSON.stringify(value));
  });

  it('streams a payload larger than one chunk, shared strings written each time', async () => {
    const text = 'abstract '.repeat(2_000);
    const value = { lists: Array.from({ length: 40 }, (_, i) => ({ queryKey: `q${i}`, candidates: [{ chunkId: 'c', text }] })) };
    expect(await streamed(value)).toBe(JSON.stringify(value));
  });
});
