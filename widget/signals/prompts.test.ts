import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Prompt } from '../../shared/schema/config.ts';
import { countShown, eligiblePrompt } from './prompts.ts';

/** sessionStorage and localStorage as a browser tab has them. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
}

const prompt = { id: 'helpful', trigger: 'large_copy', text: 'Was this helpful?', choices: [], maxPerSession: 5, maxPerDay: 1 } as unknown as Prompt;
const shownAt = (time: string, sessionId: string) => {
  vi.setSystemTime(new Date(time));
  const p = eligiblePrompt([prompt], 'large_copy', sessionId);
  if (p) countShown(p, sessionId);
  return !!p;
};

describe('prompt caps', () => {
  const tz = process.env.TZ;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.stubGlobal('sessionStorage', memoryStorage());
    vi.stubGlobal('localStorage', memoryStorage());
    // A user in California, where the UTC day turns at 4 pm (5 pm in summer).
    process.env.TZ = 'America/Los_Angeles';
  });
  afterEach(() => {
    process.env.TZ = tz;
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("counts a day as the user's: a prompt at most once a day is not shown again at 4 pm, when the UTC day turns", () => {
    expect(shownAt('2026-12-07T15:55:00-08:00', 's-1')).toBe(true);
    expect(shownAt('2026-12-07T16:05:00-08:00', 's-2')).toBe(false);
    expect(shownAt('2026-12-07T23:55:00-08:00', 's-3')).toBe(false);
    expect(shownAt('2026-12-08T00:05:00-08:00', 's-4')).toBe(true);
  });
});
