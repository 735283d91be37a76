import { remember } from '../../shared/remember.ts';
import { refilled } from '../../shared/token-bucket.ts';
import { LIMITED_SESSIONS, REMEMBERED_SUBJECTS, REPEAT_WINDOW_MS, SESSION_EVENTS_PER_MIN } from '../defaults.ts';

/**
 * The client-side limiter: a token bucket per session for what the page records by itself, and
 * suppression of a double click: the same event (signal and detail) as the last one recorded
 * about the same subject (its trace) within REPEAT_WINDOW_MS. Up, down, up again is a change of
 * mind, each passed. What a person did (`byPerson`) is not metered: a vote must not be refused
 * because many answers on the page reported their dwell when it was hidden.
 */
export class ClientLimiter {
  /** Per session: its bucket's tokens and when it held them (the collector's token bucket, one per session). */
  private readonly buckets = new Map<string, [tokens: number, at: number]>();
  /** Per session and subject: the last event's fingerprint and time. */
  private readonly last = new Map<string, [string, number]>();

  allow(sessionId: string, subject: string, fingerprint: string, now: number, byPerson?: boolean): boolean {
    // What a person did and what the page recorded by itself are each compared with their own last:
    // a prompt shown after a copy does not hide the copy's double.
    const key = `${sessionId}|${subject}|${byPerson}`;
    const last = this.last.get(key);
    if (last?.[0] === fingerprint && now - last[1] < REPEAT_WINDOW_MS) return false;
    if (!byPerson) {
      const [tokens, at] = this.buckets.get(sessionId) ?? [SESSION_EVENTS_PER_MIN, now];
      const level = refilled(tokens, at, now, SESSION_EVENTS_PER_MIN, 60_000);
      if (level < 1) return false;
      remember(this.buckets, sessionId, [level - 1, now], LIMITED_SESSIONS);
    }
    remember(this.last, key, [fingerprint, now], REMEMBERED_SUBJECTS);
    return true;
  }
}
