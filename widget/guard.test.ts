import { describe, expect, it } from 'vitest';
import { guardMethods } from './guard.ts';

class Answer {
  shown = 0;
  show(): number {
    return ++this.shown;
  }
  fail(): number {
    throw new Error('a bug');
  }
  async failLater(): Promise<number> {
    throw new Error('a later bug');
  }
  get twice(): number {
    return this.shown * 2;
  }
}
guardMethods(Answer.prototype);

describe('guardMethods', () => {
  it('lets every method of a class return what it returns, and nothing it throws or rejects with reach the caller', async () => {
    const answer = new Answer();
    expect(answer.show()).toBe(1);
    expect(answer.fail()).toBeUndefined();
    await expect(answer.failLater()).resolves.toBeUndefined();
    expect(answer.twice).toBe(2); // a getter is left as it is
  });

  it('leaves the methods as a class has them: not enumerable', () => {
    expect(Object.keys(Answer.prototype)).toEqual([]);
    expect(Object.getOwnPropertyDescriptor(Answer.prototype, 'show')).toMatchObject({ enumerable: false, writable: true, configurable: true });
  });
});
