/**
 * A wrangler.toml table's `NAME = value` lines, the form wrangler.toml uses (an inline table
 * `vars = { … }` or an `[env.x.vars]` is not read; the entries of an array of tables, `[[x]]`,
 * come together). A quoted value is its string, a bare one its text (a number's `_` between
 * digits dropped, as TOML reads it).
 */
import { readFileSync } from 'node:fs';

export function tomlTable(file: string, name: string): Record<string, string> {
  const entries: Record<string, string> = {};
  let table = '';
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const header = /^\s*\[{1,2}\s*([^\]]+?)\s*\]{1,2}\s*(#.*)?$/.exec(line);
    if (header) table = header[1]!;
    if (header || table !== name) continue;
    const entry = /^\s*([A-Za-z_][\w-]*)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^#\s]+)\s*(#.*)?$/.exec(line);
    if (!entry) continue;
    const [, key, raw] = entry as unknown as [string, string, string];
    // A bare number may group its digits (`60_000`), which TOML reads, and the Worker gets, as 60000.
    const bare = /^[+-]?\d/.test(raw) ? raw.replaceAll('_', '') : raw;
    entries[key] = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.startsWith("'") ? raw.slice(1, -1) : bare;
  }
  return entries;
}
