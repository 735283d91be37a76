import { describe, expect, it } from 'vitest';
import { fill, typed } from './typed.ts';

describe('typed', () => {
  it('takes a value of the default’s type, and of numbers only the finite and not negative', () => {
    expect([typed('Yes', 'No'), typed(5, 'No'), typed(true, false), typed('true', false)]).toEqual(['Yes', 'No', true, false]);
    expect([0, 2.5, Number.NaN, -1, Number.POSITIVE_INFINITY, '3', null].map((n) => typed(n, 7))).toEqual([0, 2.5, 7, 7, 7, 7, 7]);
  });
});

describe('fill', () => {
  const defaults = { delayMs: 1_000, backoff: { baseMs: 5_000, maxMs: 60_000 }, label: 'Send' };

  it('keeps the default of what is missing, of the wrong type or not a usable number, down into objects', () => {
    expect(fill({ backoff: { baseMs: 500 } }, defaults)).toEqual({ ...defaults, backoff: { baseMs: 500, maxMs: 60_000 } });
    expect(fill({ delayMs: Number.NaN, backoff: { maxMs: -1 }, label: 5, extra: 1 }, defaults)).toEqual(defaults);
    expect(fill({ delayMs: 0, backoff: 'fast', label: '' }, defaults)).toEqual({ ...defaults, delayMs: 0, label: '' });
    for (const nothing of [undefined, null, 42, 'options']) expect(fill(nothing, defaults)).toEqual(defaults);
  });
});
