/**
 * Runs wrangler offline with its state where we say: the one place that knows how to migrate and
 * serve the local collector, and where its local D1 is (local-d1-sql.ts queries it). Used by
 * `npm start`, `npm run keys`, and (through local-collector.ts) the browser tests and the benchmarks.
 */
import { type ChildProcess, type StdioOptions, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'smol-toml';
import { freePort, refuseTakenPort } from './free-port.ts';

export const ROOT = resolve(import.meta.dirname, '..');
const WRANGLER = join(ROOT, 'node_modules', '.bin', 'wrangler');

/** Keeps wrangler off the network: no metrics, no error reports, no `request.cf` download. */
export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
};

export interface LocalD1 {
  /** Where the local D1 lives; undefined means wrangler's default, `.wrangler/state`. */
  persistTo?: string;
}

const persistArgs = ({ persistTo }: LocalD1) => (persistTo ? ['--persist-to', persistTo] : []);

/** The folder wrangler keeps the local state in. */
export const persistDir = ({ persistTo }: LocalD1): string => resolve(ROOT, persistTo ?? join('.wrangler', 'state'));

/** Where wrangler (miniflare) keeps local D1s under `persistTo`. */
export const d1Persist = (persistTo: string) => join(persistTo, 'v3', 'd1');
const d1Dir = (persistTo: string) => join(d1Persist(persistTo), 'miniflare-D1DatabaseObject');

/** The id wrangler.toml gives the D1 bound as DB: miniflare names its local file after it. */
export function d1DatabaseId(): string {
  const { d1_databases = [] } = parse(readFileSync(join(ROOT, 'wrangler.toml'), 'utf8')) as { d1_databases?: { binding?: string; database_id?: string }[] };
  const id = d1_databases.find((d) => d.binding === 'DB')?.database_id;
  if (!id) throw new Error('wrangler.toml binds no D1 database_id as DB');
  return id;
}
const d1Files = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');

/** The SQLite file wrangler keeps a local D1 in under `persistTo`, once migrated. */
export function d1File(persistTo: string): string {
  const dir = d1Dir(persistTo);
  const [file] = d1Files(dir);
  if (!file) throw new Error(`no D1 database file in ${dir}`);
  return join(dir, file);
}

/** Whether wrangler has made the local D1 yet: commands that only read or revoke need not make it. */
export function localD1Exists(d1: LocalD1 = {}): boolean {
  const dir = d1Dir(persistDir(d1));
  return existsSync(dir) && d1Files(dir).length > 0;
}

function wrangler(args: string[], options: { quiet?: boolean } = {}): string {
  const result = spawnSync(WRANGLER, args, { cwd: ROOT, env: { ...process.env, ...OFFLINE_ENV }, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`wrangler ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  if (!options.quiet) process.stdout.write(result.stdout);
  return result.stdout;
}

/** Where the collector's migrations are, and their file names in the order they apply. */
export const MIGRATIONS_DIR = join(ROOT, 'collector', 'migrations');
export const migrationFiles = (): string[] =>
  readdirSync(MIGRATIONS_DIR)
    .filter((n) => n.endsWith('.sql'))
    .sort();

/** Applies collector/migrations to the local D1 (only the ones not applied yet); answers the names of those it applied. */
export function migrate(d1: LocalD1 = {}, options: { quiet?: boolean } = {}): string[] {
  const out = wrangler(['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs(d1)], options);
  // wrangler reprints its table after each migration, each applied one marked ✅.
  return [...new Set(out.match(/\b\d{4}_\w+\.sql(?=\s*│\s*✅)/g) ?? [])];
}

export interface DevServer {
  url: string;
  port: number;
  /** The Worker's inspector, when one was asked for. */
  inspectorPort?: number;
  process: ChildProcess;
  /** Stops wrangler and both of its workerd processes. */
  stop(): Promise<void>;
}

export interface DevOptions extends LocalD1 {
  /** A fixed port (`npm start`'s); by default a free one, picked again if another process takes it first. */
  port?: number;
  /** Extra `--var NAME:VALUE` settings, e.g. rate limits for a benchmark. */
  vars?: Record<string, string>;
  /** Show wrangler's output (for `npm start`). */
  inherit?: boolean;
  /** wrangler's log level; logging each request costs CPU, so benchmarks use "warn". */
  logLevel?: 'info' | 'warn' | 'error';
  /** Where the Worker's inspector listens (Chrome DevTools Protocol); wrangler picks one otherwise. */
  inspectorPort?: number;
  /**
   * Ctrl-C while it starts: wrangler, already spawned in a group of its own that the terminal's
   * Ctrl-C does not reach, is stopped, and the start rejects with the signal's reason once it has.
   */
  signal?: AbortSignal;
}

/**
 * A start that another process got in the way of, worth trying again on another port: it listens
 * on the port wrangler was given (wrangler says so and keeps running), or took one of workerd's own
 * first so that the runtime could not start.
 */
class StartCollision extends Error {}
const PORT_TAKEN = /Address already in use/;
const RUNTIME_FAILED = /The Workers runtime failed to start/;
/** Free ports tried before giving up: a collision needs another process to bind the same port within a second. */
const PORT_ATTEMPTS = 3;

/** Ends a process started `detached` and every child in its group: SIGTERM, then SIGKILL after 5 s. */
export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Starts `wrangler dev` on 127.0.0.1 and resolves once /v1/health answers. */
export async function startDev(options: DevOptions = {}): Promise<DevServer> {
  if (options.port !== undefined) {
    // Taken already, wrangler would say so where we may not read it (npm start's terminal) and keep
    // running, while the health check asked whatever holds the port: an EADDRINUSE now says it.
    await refuseTakenPort(options.port);
    return startDevOn(options.port, options);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevOn(await freePort(), options);
    } catch (err) {
      if (!(err instanceof StartCollision) || attempt === PORT_ATTEMPTS) throw err;
    }
  }
}

async function startDevOn(port: number, { vars = {}, inherit = false, logLevel = 'info', inspectorPort, signal, ...d1 }: DevOptions): Promise<DevServer> {
  signal?.throwIfAborted();
  const args = ['dev', '--ip', '127.0.0.1', '--port', String(port), '--test-scheduled', '--log-level', logLevel, ...persistArgs(d1)];
  if (inspectorPort !== undefined) args.push('--inspector-port', String(inspectorPort));
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  // wrangler appends every debug message (one per inspector event, several per request) to a log
  // file in the home folder; a throwaway server keeps it beside its throwaway state.
  const logs = d1.persistTo ? { WRANGLER_LOG_PATH: join(d1.persistTo, 'wrangler.log') } : {};
  // Its own process group, so stop() can end wrangler and its workerd children together.
  // Its input is not the terminal's: wrangler given a terminal turns on its hotkeys and puts the
  // terminal in raw mode, where Ctrl-C no longer interrupts the start but is a key wrangler exits on.
  const stdio: StdioOptions = inherit ? ['ignore', 'inherit', 'inherit'] : 'pipe';
  const child = spawn(WRANGLER, args, { cwd: ROOT, env: { ...process.env, ...OFFLINE_ENV, ...logs }, detached: true, stdio });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopProcessGroup(child);
  const portTaken = async () => {
    await stop();
    return new StartCollision(`port ${port} is taken:\n${output}`);
  };
  const interrupted = async (): Promise<unknown> => {
    await stop();
    return signal?.reason;
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw await interrupted();
    if (PORT_TAKEN.test(output)) throw await portTaken();
    if (child.exitCode !== null) {
      if (RUNTIME_FAILED.test(output)) throw new StartCollision(`wrangler dev could not start its runtime on port ${port}:\n${output}`);
      throw new Error(`wrangler dev exited (${child.exitCode}):\n${output}`);
    }
    let healthy = false;
    try {
      // A listener that accepts and never answers must not hold us past the deadline.
      const res = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(2_000) });
      // The answer may have come from the process that holds the port: wrangler tells us by then.
      if (PORT_TAKEN.test(output)) throw await portTaken();
      healthy = res.ok;
    } catch (err) {
      if (err instanceof StartCollision) throw err;
      // not listening yet
    }
    // Ctrl-C while the health check waited: stopped even if it answered, as the caller gave up on it.
    if (signal?.aborted) throw await interrupted();
    if (healthy) return { url, port, ...(inspectorPort !== undefined && { inspectorPort }), process: child, stop };
    await sleep(200, undefined, { signal }).catch(() => undefined);
  }
  await stop();
  throw new Error(`wrangler dev did not answer on ${url} within 60 s:\n${output}`);
}
