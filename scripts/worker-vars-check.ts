/**
 * The Worker's settings as wrangler.toml `[vars]` and `.dev.vars` set them, checked before the
 * Worker is started or deployed: the Worker would run with a mistyped one read as its safe value
 * (collector/worker-vars.ts), so the command refuses it first, naming it and what it takes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { parse } from 'smol-toml';
import { varProblems } from '../collector/worker-vars.ts';

/**
 * wrangler.toml's top-level `vars`, each as the text the check reads (a number as its digits; an
 * `[env.x.vars]` table is not read, as `npm start` and `npm run deploy` use none).
 */
export function tomlVars(file: string): Record<string, string> {
  const { vars = {} } = parse(readFileSync(file, 'utf8')) as { vars?: Record<string, unknown> };
  return Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, typeof value === 'object' ? JSON.stringify(value) : String(value)]));
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
