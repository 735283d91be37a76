/**
 * Runs named statements, then `more` (unnamed), in one D1 batch (one transaction) and returns each
 * named statement's result by its name, so a reader never counts positions in a long batch.
 */
export async function namedBatch<K extends string>(
  d1: D1Database,
  statements: Record<K, D1PreparedStatement>,
  more: readonly D1PreparedStatement[] = [],
): Promise<Record<K, D1Result>> {
  const names = Object.keys(statements) as K[];
  const results = await d1.batch([...names.map((name) => statements[name]), ...more]);
  return Object.fromEntries(names.map((name, i) => [name, results[i]!])) as Record<K, D1Result>;
}
