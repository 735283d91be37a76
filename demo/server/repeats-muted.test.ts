import { describe, expect, it } from 'vitest';
import { mutingRepeats, REPEAT_MUTED_MS } from './repeats-muted.ts';

describe('mutingRepeats', () => {
  it('says a message again only a minute after it last said it, whatever came between, and any other message at once', () => {
    const said: string[] = [];
    let clock = 0;
    const log = mutingRepeats(
      (m) => said.push(m),
      () => clock,
    );
    log('no model: fetch failed');
    clock += 1_000;
    log('no model: fetch failed');
    log('trace t-1 not stored');
    log('no model: fetch failed');
    clock += REPEAT_MUTED_MS;
    log('no model: fetch failed');
    log('no model: fetch failed');
    expect(said).toEqual(['no model: fetch failed', 'trace t-1 not stored', 'no model: fetch failed']);
  });
});
