import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SIGNALS } from '../../shared/signals.ts';

/** The README with its line breaks as spaces: a value may be stated across two lines. */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe("the README's signal values", () => {
  it('states each fixed value as the signal table holds it', () => {
    for (const [type, { value }] of Object.entries(SIGNALS)) {
      if (value !== null) expect(readme, type).toContain(`\`${type}\` ${value > 0 ? '+' : ''}${value.toFixed(1)}`);
    }
  });
});
