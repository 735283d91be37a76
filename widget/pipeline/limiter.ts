import { TokenBuckets } from '../../shared/token-bucket.ts';
import { LIMITED_SESSIONS, RECENT_EVENTS_SWEEP_AT, REPEAT_WINDOW_MS, SESSION_EVENTS_PER_MIN } from '../defaults.ts';

/**
 * The client-side limiter: a token bucket per session for what the page records by itself, and
 * suppression of an identical event (same trace, signal and detail) repeated within
 * REPEAT_WINDOW_MS. What a person did (`byPerson`) is not metered: a vote must not be refused
 * because many answers on the page reported their dwell when it was hidden.
 */
export class ClientLimiter {
  private readonly buckets = new TokenBuckets(60_000, LIMITED_SESSIONS);
  private readonly recent = new Map<string, number>();

  allow(sessionId: string, fingerprint: string, now: number, byPerson?: boolean): boolean {
    const key = `${sessionId}|${fingerprint}`;
    const last = this.recent.get(key);
    if (last !== undefined && now - last < REPEAT_WINDOW_MS) return false;
    if (!byPerson && !this.buckets.take([{ name: sessionId, cost: 1, capacity: SESSION_EVENTS_PER_MIN }], now).ok) return false;
    this.recent.set(key, now);
    if (this.recent.size > RECENT_EVENTS_SWEEP_AT) {
      for (const [key, at] of this.recent) if (now - at >= REPEAT_WINDOW_MS) this.recent.delete(key);
    }
    return true;
  }
}
