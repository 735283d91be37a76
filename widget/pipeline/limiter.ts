import { TokenBuckets } from '../../shared/token-bucket.ts';
import { LIMITED_SESSIONS, RECENT_EVENTS_SWEEP_AT, REPEAT_WINDOW_MS, SESSION_EVENTS_PER_MIN } from '../defaults.ts';

/**
 * The client-side limiter: a token bucket per session for what the page records by itself, and
 * suppression of a double click: the same event (signal and detail) as the last one recorded
 * about the same subject (its trace) within REPEAT_WINDOW_MS. Up, down, up again is a change of
 * mind, each passed. What a person did (`byPerson`) is not metered: a vote must not be refused
 * because many answers on the page reported their dwell when it was hidden.
 */
export class ClientLimiter {
  private readonly buckets = new TokenBuckets(60_000, LIMITED_SESSIONS);
  /** Per session and subject: the last event's fingerprint and time. */
  private readonly last = new Map<string, [string, number]>();

  allow(sessionId: string, subject: string, fingerprint: string, now: number, byPerson?: boolean): boolean {
    const key = `${sessionId}|${subject}`;
    const last = this.last.get(key);
    if (last?.[0] === fingerprint && now - last[1] < REPEAT_WINDOW_MS) return false;
    if (!byPerson && !this.buckets.take([{ name: sessionId, cost: 1, capacity: SESSION_EVENTS_PER_MIN }], now).ok) return false;
    this.last.set(key, [fingerprint, now]);
    if (this.last.size > RECENT_EVENTS_SWEEP_AT) {
      for (const [key, [, at]] of this.last) if (now - at >= REPEAT_WINDOW_MS) this.last.delete(key);
    }
    return true;
  }
}
