/**
 * Sets `key` as the newest entry of a map kept to `max` entries, the one used longest ago going
 * first: a Map iterates in insertion order, so re-inserting on use keeps it least recently used first.
 */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/**
 * A map kept to `maxEntries` entries and to `maxSize` in all (each value's size by `sizeOf`), the
 * entry used longest ago going first, so what is read often stays however much passes through
 * once; the newest stays whatever its size.
 */
export class SizedCache<K, V> {
  private readonly map = new Map<K, V>();
  private size = 0;

  constructor(private readonly limits: { maxEntries: number; maxSize: number; sizeOf: (value: V) => number }) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      // Set again: a Map iterates in insertion order, so the order kept is that of use.
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    const { maxEntries, maxSize } = this.limits;
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.size -= this.sizeOf(old);
    }
    this.map.set(key, value);
    this.size += this.sizeOf(value);
    while (this.map.size > 1 && (this.map.size > maxEntries || this.size > maxSize)) {
      const [oldestKey, oldest] = this.map.entries().next().value!;
      this.map.delete(oldestKey);
      this.size -= this.sizeOf(oldest);
    }
  }

  /**
   * A value's size; one `sizeOf` cannot tell (NaN, negative: a value not of the type it sizes)
   * counts as the whole bound, so the total stays a number and the bound holds for the rest.
   */
  private sizeOf(value: V): number {
    const size = this.limits.sizeOf(value);
    if (Number.isFinite(size) && size >= 0) return size;
    return Number.isFinite(this.limits.maxSize) ? this.limits.maxSize : 0;
  }

  clear(): void {
    this.map.clear();
    this.size = 0;
  }
}
