import { TokenBuckets } from '../../shared/token-bucket.ts';
import { LIMITED_SESSIONS, RECENT_EVENTS_SWEEP_AT, REPEAT_WINDOW_MS, SESSION_EVENTS_PER_MIN } from '../defaults.ts';

/**
 * The client-side limiter: a token bucket per session, and suppression of an identical event
 * (same trace, signal and detail) repeated within REPEAT_WINDOW_MS.
 */
export class ClientLimiter {
  private readonly buckets = new TokenBuckets(60_000, LIMITED_SESSIONS);
  private readonly recent = new Map<string, number>();

  allow(sessionId: string, fingerprint: string, now: number): boolean {
    const key = `${sessionId}|${fingerprint}`;
    const last = this.recent.get(key);
    if (last !== undefined && now - last < REPEAT_WINDOW_MS) return false;
    if (!this.buckets.take([{ name: sessionId, cost: 1, capacity: SESSION_EVENTS_PER_MIN }], now).ok) return false;
    this.recent.set(key, now);
    if (this.recent.size > RECENT_EVENTS_SWEEP_AT) {
      for (const [key, at] of this.recent) if (now - at >= REPEAT_WINDOW_MS) this.recent.delete(key);
    }
    return true;
  }
}
