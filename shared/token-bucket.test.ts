import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './token-bucket.ts';

describe('TokenBuckets', () => {
  it('allows a burst up to capacity, then refuses with the wait until enough tokens refill', () => {
    const b = new TokenBuckets(60_000);
    const cost = { name: 'k', cost: 10, capacity: 60 };
    for (let i = 0; i < 6; i++) expect(b.take([cost], 0)).toEqual({ ok: true });
    expect(b.take([cost], 0)).toEqual({ ok: false, name: 'k', retryAfterMs: 10_000 });
    expect(b.take([cost], 9_999).ok).toBe(false);
    expect(b.take([cost], 10_000)).toEqual({ ok: true });
  });

  it('takes from all buckets or none', () => {
    const b = new TokenBuckets(1000);
    const small = { name: 's', cost: 1, capacity: 1 };
    const big = { name: 'b', cost: 1, capacity: 100 };
    expect(b.take([big, small], 0).ok).toBe(true);
    expect(b.take([big, small], 0)).toMatchObject({ ok: false, name: 's' });
    // The refused call must not have spent from the big bucket: 99 left, not 98.
    for (let i = 0; i < 99; i++) expect(b.take([big], 0).ok).toBe(true);
    expect(b.take([big], 0).ok).toBe(false);
  });

  it('never refills above capacity and forgets the oldest bucket when full', () => {
    const b = new TokenBuckets(1000, 2);
    b.take([{ name: 'a', cost: 1, capacity: 1 }], 0);
    // A thousand periods later it holds one token, not a thousand.
    expect(b.take([{ name: 'a', cost: 1, capacity: 1 }], 1_000_000).ok).toBe(true);
    expect(b.take([{ name: 'a', cost: 1, capacity: 1 }], 1_000_000).ok).toBe(false);
    b.take([{ name: 'b', cost: 1, capacity: 1 }], 0);
    b.take([{ name: 'c', cost: 1, capacity: 1 }], 0);
    expect(b.take([{ name: 'a', cost: 1, capacity: 1 }], 0).ok).toBe(true); // 'a' was evicted: full again
  });

  it('lets a cost above capacity through once the bucket is full, then makes it wait for what it owes', () => {
    const b = new TokenBuckets(60_000);
    const batch = [{ name: 'session', cost: 100, capacity: 60 }];
    const first = b.take([{ name: 'session', cost: 1, capacity: 60 }], 0);
    expect(first.ok).toBe(true);
    const refused = b.take(batch, 0);
    expect(refused).toMatchObject({ ok: false, name: 'session' });
    // Told to come back when the bucket is full again: then it passes, however large.
    const wait = (refused as { retryAfterMs: number }).retryAfterMs;
    expect(b.take(batch, wait).ok).toBe(true);
    // It owes 40 tokens: nothing more passes until they and the next one have refilled (41 s).
    expect(b.take([{ name: 'session', cost: 1, capacity: 60 }], wait + 40_000).ok).toBe(false);
    expect(b.take([{ name: 'session', cost: 1, capacity: 60 }], wait + 41_000).ok).toBe(true);
  });
});

describe('TokenBuckets.waitFor', () => {
  it('says how long until a bucket could take a cost, taking nothing', () => {
    const b = new TokenBuckets(60_000);
    const cost = { name: 's', cost: 4, capacity: 6 };
    expect(b.waitFor(cost, 0)).toBe(0);
    expect(b.take([cost], 0).ok).toBe(true);
    // 2 left of 6, 4 wanted: 2 tokens refill in 20 s; asking twice takes nothing.
    expect(b.waitFor(cost, 0)).toBe(20_000);
    expect(b.waitFor(cost, 0)).toBe(20_000);
    expect(b.waitFor(cost, 20_000)).toBe(0);
    expect(b.take([cost], 0)).toEqual({ ok: false, name: 's', retryAfterMs: 20_000 });
  });
});
