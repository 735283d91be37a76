/**
 * The Worker's settings as wrangler.toml `[vars]` and `.dev.vars` set them, checked before the
 * Worker is started or deployed: the Worker would run with a mistyped one read as its safe value
 * (collector/worker-vars.ts), so the command refuses it first, naming it and what it takes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { varProblems } from '../collector/worker-vars.ts';

/**
 * The `[vars]` table's `NAME = value` lines (the form wrangler.toml uses; an inline table
 * `vars = { … }` or an `[env.x.vars]` is not read). A quoted value is its string, a bare one its text (a number's `_` between digits dropped, as TOML reads it).
 */
export function tomlVars(file: string): Record<string, string> {
  const vars: Record<string, string> = {};
  let table = '';
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const header = /^\s*\[{1,2}\s*([^\]]+?)\s*\]{1,2}\s*(#.*)?$/.exec(line);
    if (header) table = header[1]!;
    if (header || table !== 'vars') continue;
    const entry = /^\s*([A-Za-z_][\w-]*)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[^#\s]+)\s*(#.*)?$/.exec(line);
    if (!entry) continue;
    const [, name, raw] = entry as unknown as [string, string, string];
    // A bare number may group its digits (`60_000`), which TOML reads, and the Worker gets, as 60000.
    const bare = /^[+-]?\d/.test(raw) ? raw.replaceAll('_', '') : raw;
    vars[name] = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.startsWith("'") ? raw.slice(1, -1) : bare;
  }
  return vars;
}

/** `.dev.vars` as `wrangler dev` reads it, over `[vars]`; none when the file is absent. */
export const devVars = (file: string): Record<string, string> => (existsSync(file) ? (parseEnv(readFileSync(file, 'utf8')) as Record<string, string>) : {});

/** Throws one error listing every setting in `vars` that holds a value the Worker does not take. */
export function refuseMistypedVars(vars: Record<string, string>, where: string): void {
  const problems = varProblems(vars);
  if (!problems.length) return;
  const each = problems.map((p) => `${p.variable} is ${JSON.stringify(p.value)}, which the collector does not take (it takes ${p.accepts})`);
  throw new Error(`${where}: ${each.join('; ')}`);
}
