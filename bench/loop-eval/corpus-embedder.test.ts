import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../shared/embedder.ts';
import { cachedEmbedder } from './corpus-embedder.ts';

describe('cachedEmbedder', () => {
  it('embeds each distinct text once, keeps the order asked and the model id', async () => {
    const calls: string[][] = [];
    const inner: Embedder = {
      id: 'model:fp32',
      embed: async (texts) => {
        calls.push([...texts]);
        return texts.map((t) => Float32Array.of(t.length, 1));
      },
    };
    const cached = cachedEmbedder(inner);
    expect(cached.id).toBe('model:fp32');
    expect(await cached.embed(['ab', 'abc', 'ab'])).toEqual([Float32Array.of(2, 1), Float32Array.of(3, 1), Float32Array.of(2, 1)]);
    expect(await cached.embed(['abc', 'abcd'])).toEqual([Float32Array.of(3, 1), Float32Array.of(4, 1)]);
    expect(await cached.embed(['ab'])).toEqual([Float32Array.of(2, 1)]);
    expect(calls).toEqual([['ab', 'abc'], ['abcd']]);
  });
});
