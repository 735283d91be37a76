import { TokenBuckets } from '../../shared/token-bucket.ts';
import { REPEAT_WINDOW_MS } from '../limits.ts';

/** Events one session may record per minute: generous for a person, a stop for a runaway loop. */
export const SESSION_EVENTS_PER_MIN = 120;

/**
 * The client-side limiter: a token bucket per session, and suppression of an identical event
 * (same trace, signal and detail) repeated within REPEAT_WINDOW_MS.
 */
export class ClientLimiter {
  private readonly buckets = new TokenBuckets(60_000, 1_000);
  private readonly recent = new Map<string, number>();

  allow(sessionId: string, fingerprint: string, now: number): boolean {
    const key = `${sessionId}|${fingerprint}`;
    const last = this.recent.get(key);
    if (last !== undefined && now - last < REPEAT_WINDOW_MS) return false;
    if (!this.buckets.take([{ name: sessionId, cost: 1, capacity: SESSION_EVENTS_PER_MIN }], now).ok) return false;
    this.recent.set(key, now);
    if (this.recent.size > 500) {
      for (const [key, at] of this.recent) if (now - at >= REPEAT_WINDOW_MS) this.recent.delete(key);
    }
    return true;
  }
}
