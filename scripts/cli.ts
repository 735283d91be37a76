/**
 * What the command-line tools share when something goes wrong: a failure is printed as one line
 * that says what to do, not as a stack (`DEBUG=1` prints the stack too), and a collector that
 * cannot be reached is named with its address.
 */

import { type ParseArgsConfig, parseArgs } from 'node:util';
import { causeOf } from '../shared/cause.ts';
import { isLoopback } from '../shared/url.ts';

/**
 * Ends the tool quietly, exit code 0, once what reads its output has gone (`| head`, a pager quit):
 * the rest is wanted by no one, and a closed pipe is no failure of the tool's to report.
 */
export function endWhenReaderGoes(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
}

/** Prints an uncaught failure as one line and exits 1. Call it first in a tool. */
export function failInOneLine(): void {
  endWhenReaderGoes();
  process.on('uncaughtException', (err) => {
    const code = (err as NodeJS.ErrnoException).code;
    const hint = code === 'EADDRINUSE' ? ' (is `npm start` running already? PORT and DEMO_PORT choose other ports)' : '';
    console.error(`error: ${err instanceof Error ? err.message : String(err)}${hint}`);
    if (process.env.DEBUG) console.error(err);
    process.exit(1);
  });
}

/**
 * `fetch`, with a collector that does not answer named by its address rather than "fetch failed".
 * A redirect is not followed but said: followed, a POST would arrive as a GET, without its key
 * (http to https is another origin), and be answered 404 or 401 as if the key were wrong.
 */
export async function fetchCollector(url: string, init?: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, redirect: 'manual' });
  } catch (err) {
    throw new Error(unreachable(url, err));
  }
  const location = res.headers.get('location');
  if (res.status >= 300 && res.status < 400 && location) {
    const to = new URL(location, url);
    const from = new URL(url);
    // The same route elsewhere (http to https) is the collector's address; another path is not: a sign-in page, say.
    if (to.pathname === from.pathname) throw new Error(`${from.origin} redirects to ${to.origin}: give that as --endpoint`);
    throw new Error(
      `${from.origin} redirects to ${to.origin}${to.pathname}, not to the collector's route: a sign-in page in front of the collector (Cloudflare Access, say)? Give an address that reaches the collector itself as --endpoint`,
    );
  }
  return res;
}

/** Why `url` could not be fetched, and what to check: `npm start`'s port on this machine, the address given elsewhere. */
export function unreachable(url: string, err: unknown): string {
  const hint = isLoopback(url)
    ? 'is `npm start` running, on that port (one started with PORT=… takes the same PORT here), or is --endpoint right?'
    : 'is the collector up there, and is --endpoint (or RF_ENDPOINT) right?';
  return `the collector at ${new URL(url).origin} cannot be reached (${causeOf(err)}): ${hint}`;
}

/**
 * A whole number from `min` to `max` (of `unit`, say days) given as `--name` (or in the environment
 * variable `name`), in plain decimal digits, or a one-line error naming it: `Number()` would take
 * `abc` as NaN, and `1e3`, `0x10`, ` 7 ` or an empty string as numbers.
 */
export function wholeNumber(name: string, given: string, min: number, max: number, unit?: string): number {
  const n = /^-?\d+$/.test(given) ? Number(given) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new Error(`${name} must be a whole number${unit ? ` of ${unit}` : ''} from ${min} to ${max}, not ${JSON.stringify(given)}`);
  return n;
}

/**
 * A number from `min` to `max` as wholeNumber reads one, which may have a fraction after a point
 * (`0.25`, `30`): a share or a time. No exponent, hex, spaces or empty string, as `Number()` takes.
 */
export function decimalNumber(name: string, given: string, min: number, max: number, unit?: string): number {
  const n = /^-?\d+(\.\d+)?$/.test(given) ? Number(given) : Number.NaN;
  if (!(n >= min && n <= max)) throw new Error(`${name} must be a number${unit ? ` of ${unit}` : ''} from ${min} to ${max}, not ${JSON.stringify(given)}`);
  return n;
}

/**
 * A collector's answer read as JSON; anything else (a sign-in page of a proxy in front of it, the
 * demo or another site at that address) is said as such rather than as a JSON syntax error.
 */
export function collectorJson<T>(res: Response, text: string, asked: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    const type = res.headers.get('content-type') ?? 'no content type';
    throw new Error(
      `${asked} answered ${res.status} with ${type}, not the collector's JSON (${JSON.stringify(text.slice(0, 40))}): is --endpoint the collector's address?`,
    );
  }
}

/**
 * Whether the command line asks for the usage: `--help` or `-h` before any `--` (after it, a word
 * is an argument, a file so named say).
 */
export function helpAsked(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * A tool's command line, flags and up to `positionals` words: `--help` prints its usage and exits 0
 * (rather than being taken as a file's name, or starting what the tool starts), and a flag it does
 * not take (or one without its value), or a word more, is refused in one line that gives the usage,
 * rather than node's bare "Unknown option '--help'".
 */
export function parseCommand<const T extends NonNullable<ParseArgsConfig['options']>>(
  options: T,
  usage: string,
  { positionals = 0, args = process.argv.slice(2) }: { positionals?: number; args?: string[] } = {},
) {
  if (helpAsked(args)) {
    console.log(`usage: ${usage}`);
    process.exit(0);
  }
  const parsed = (() => {
    try {
      return parseArgs({ args, options, allowPositionals: positionals > 0 });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (!code.startsWith('ERR_PARSE_ARGS')) throw err;
      // Node's own advice about positionals does not apply: a tool takes what its usage says.
      throw new Error(`${(err as Error).message.split('. ')[0]!.replace(/\.$/, '')}; usage: ${usage}`);
    }
  })();
  // Typed as none when whether they are allowed is not known to the compiler.
  const words = parsed.positionals as string[];
  const more = words[positionals];
  if (more !== undefined) throw new Error(`unexpected ${JSON.stringify(more)}; usage: ${usage}`);
  return { values: parsed.values, positionals: words };
}

/** A tool's flags, when it takes no other words: see `parseCommand`. */
export function parseFlags<const T extends NonNullable<ParseArgsConfig['options']>>(options: T, usage: string) {
  return parseCommand(options, usage).values;
}
