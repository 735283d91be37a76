/**
 * Sets `key` as the newest entry of a map kept to `max` entries, the one used longest ago going
 * first: a Map iterates in insertion order, so re-inserting on use keeps it least recently used first.
 */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
