import type { Prompt } from '../../shared/schema/config.ts';
import { KEY } from '../session.ts';
import { readJson, writeJson } from '../storage.ts';
import type { PromptTrigger } from './host.ts';

const { promptInSession: sessionKey, promptDay: dayKey } = KEY;

/**
 * How often `prompt` was shown: in this session, and today (in any session of this browser), the day
 * as the user's clock has it (a cap of once a day must not start over at 4 pm in California, when the UTC day turns).
 */
function timesShown(prompt: Prompt, sessionId: string): [inSession: number, onDay: number, today: string] {
  const day = readJson<{ day: string; n: number }>(dayKey(prompt.id), 'local');
  const today = new Date().toDateString();
  return [readJson<number>(sessionKey(sessionId, prompt.id)) ?? 0, day?.day === today ? day.n : 0, today];
}

/** The first configured prompt for `trigger` still under its per-session and per-day caps. */
export function eligiblePrompt(prompts: readonly Prompt[], trigger: PromptTrigger, sessionId: string): Prompt | undefined {
  return prompts.find((p) => {
    if (p.trigger !== trigger) return false;
    const [inSession, onDay] = timesShown(p, sessionId);
    return inSession < p.maxPerSession && onDay < p.maxPerDay;
  });
}

/** Counts a showing against both caps. */
export function countShown(prompt: Prompt, sessionId: string): void {
  const [inSession, onDay, day] = timesShown(prompt, sessionId);
  writeJson(sessionKey(sessionId, prompt.id), inSession + 1);
  writeJson(dayKey(prompt.id), { day, n: onDay + 1 }, 'local');
}
