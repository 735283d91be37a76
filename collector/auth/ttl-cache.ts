import { remember } from '../../shared/remember.ts';

/**
 * A small per-isolate cache with expiry and a size cap. Keys and origins are read on every
 * request and change rarely; a minute of staleness is the price of not querying D1 each time.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly max = 1_000,
  ) {}

  /** The value held for `key` if it has not expired, without loading one. */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > Date.now() ? hit.value : undefined;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const value = await load();
    remember(this.entries, key, { value, expires: now + this.ttlMs }, this.max);
    return value;
  }
}
