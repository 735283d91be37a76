/**
 * Options the host page passes in plain JavaScript, and the config the collector serves, may hold
 * anything: each value is taken only where its default could be replaced by it.
 */

/** `value` where it has the type of `fallback` (a number: finite and not negative), else `fallback`. */
export const typed = <T>(value: unknown, fallback: T): T =>
  typeof value === typeof fallback && (typeof value !== 'number' || (Number.isFinite(value) && value >= 0)) ? (value as T) : fallback;

/** `defaults` with each value `given` has for its keys in place of the default, objects filled alike. */
export function fill<T extends object>(given: unknown, defaults: T): T {
  const filled: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults)) {
    const next = (given as Record<string, unknown> | undefined)?.[key];
    filled[key] = value instanceof Object ? fill(next, value) : typed(next, value);
  }
  return filled as T;
}
