import type { Prompt } from '../../shared/schema/config.ts';
import { utcDay } from '../../shared/time.ts';
import { KEY } from '../session.ts';
import { readJson, writeJson } from '../storage.ts';
import type { PromptTrigger } from './host.ts';

const today = () => utcDay(Date.now());
const { promptInSession: sessionKey, promptDay: dayKey } = KEY;

/** How often `prompt` was shown: in this session, and today (in any session of this browser). */
function timesShown(prompt: Prompt, sessionId: string): [inSession: number, today: number] {
  const day = readJson<{ day: string; n: number }>(dayKey(prompt.id), 'local');
  return [readJson<number>(sessionKey(sessionId, prompt.id)) ?? 0, day?.day === today() ? day.n : 0];
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
  const [inSession, onDay] = timesShown(prompt, sessionId);
  writeJson(sessionKey(sessionId, prompt.id), inSession + 1);
  writeJson(dayKey(prompt.id), { day: today(), n: onDay + 1 }, 'local');
}
