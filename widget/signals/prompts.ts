import type { Prompt } from '../../shared/schema/config.ts';
import { utcDay } from '../../shared/time.ts';
import { KEY } from '../session.ts';
import { readJson, writeJson } from '../storage.ts';
import type { PromptTrigger } from './host.ts';

const today = () => utcDay(Date.now());
const { promptInSession: sessionKey, promptDay: dayKey } = KEY;

/** The first configured prompt for `trigger` still under its per-session and per-day caps. */
export function eligiblePrompt(prompts: readonly Prompt[], trigger: PromptTrigger, sessionId: string): Prompt | undefined {
  return prompts.find((p) => {
    if (p.trigger !== trigger) return false;
    const inSession = readJson<number>('session', sessionKey(sessionId, p.id)) ?? 0;
    const day = readJson<{ day: string; n: number }>('local', dayKey(p.id));
    const onDay = day?.day === today() ? day.n : 0;
    return inSession < p.maxPerSession && onDay < p.maxPerDay;
  });
}

/** Counts a showing against both caps. */
export function countShown(prompt: Prompt, sessionId: string): void {
  writeJson('session', sessionKey(sessionId, prompt.id), (readJson<number>('session', sessionKey(sessionId, prompt.id)) ?? 0) + 1);
  const day = readJson<{ day: string; n: number }>('local', dayKey(prompt.id));
  writeJson('local', dayKey(prompt.id), { day: today(), n: day?.day === today() ? day.n + 1 : 1 });
}
