import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SIGNALS } from '../../shared/signals.ts';
import { BOUNCE_WINDOW_MS, FOCUSED_DWELL_MS, REGENERATE_WINDOW_MS } from '../../shared/thresholds.ts';

/** The README's "Signal values" bullet, its line breaks as spaces: a value may be stated across two lines. */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const bullet = (readme.match(/\*\*Signal values\*\*[\s\S]*?(?=\n- \*\*)/)?.[0] ?? '').replace(/\s+/g, ' ');

/** A value as the README writes it: its sign, one decimal, and 0 bare. */
const stated = (value: number) => (value === 0 ? '0' : `${value > 0 ? '+' : ''}${value.toFixed(1)}`);
const seconds = (ms: number) => `${ms / 1000} s`;

describe("the README's signal values", () => {
  it('states each fixed value as the signal table holds it', () => {
    for (const [type, { value }] of Object.entries(SIGNALS)) {
      if (value !== null) expect(bullet, type).toContain(`\`${type}\` ${stated(value)}`);
    }
  });

  it('states the values that depend on the event, with the windows that decide them', () => {
    const { regenerate, citation_dwell, prompt_answered, bounce } = SIGNALS;
    expect(bullet).toContain(`\`regenerate\` ${stated(regenerate.value)} within ${seconds(REGENERATE_WINDOW_MS)} (${stated(regenerate.values.late)} later)`);
    expect(bullet).toContain(`\`bounce\` ${stated(bounce.value)} (left within ${seconds(BOUNCE_WINDOW_MS)}`);
    expect(bullet).toContain(`answered yes ${stated(prompt_answered.values.yes)} or no ${stated(prompt_answered.values.no)}`);
    expect(bullet).toContain(
      `read with focus (${seconds(FOCUSED_DWELL_MS)} or more) scores ${stated(citation_dwell.values.focused)} and a glance at it ${stated(citation_dwell.values.glance)}`,
    );
  });
});
