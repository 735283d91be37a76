/**
 * A throwaway collector for the browser tests and the benchmarks: its own local D1 in a temporary
 * folder, migrated, with one project, served by `wrangler dev` on a free port.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyKind } from '../collector/auth/key-kinds.ts';
import { provisionProject } from '../collector/auth/provision.ts';
import { queryEach } from './local-d1-sql.ts';
import { type DevServer, MIGRATIONS_DIR, migrate, migrationFiles, ROOT, startDev, stopProcessGroup } from './wrangler.ts';

/** Rate limits no load generator reaches, for figures that measure the collector and not its limits. */
export const NO_RATE_LIMITS = { RATE_LIMIT_KEY_PER_MIN: '100000000', RATE_LIMIT_SESSION_PER_MIN: '100000000', RATE_LIMIT_IP_PER_MIN: '100000000' };

export interface LocalCollectorOptions {
  /** Origins whose pages may use the write key. */
  origins?: readonly string[];
  /** `--var` settings, e.g. rate limits. */
  vars?: Record<string, string>;
  /** Opens the Worker's inspector on this port (a benchmark reading the Worker's heap). */
  inspectorPort?: number;
  /** Ctrl-C while it starts: wrangler is stopped and the state removed before the start rejects (see startDev). */
  signal?: AbortSignal;
  /** Show wrangler's output, on the terminal if it is one (see startDev). */
  inherit?: boolean;
  /**
   * Start from a copy of another collector's state and project (see `keepState`) rather than a new
   * D1 and project: `origins` are then that project's.
   */
  from?: CollectorState;
}

/** A collector's state and project: kept from a stopped one (`keepState`), others start from it. */
export interface CollectorState {
  /** The folder with the D1 (and wrangler's log): a running collector's is removed by stop(). */
  persistTo: string;
  /** The project's keys, one of each kind. */
  keys: Record<KeyKind, string>;
}

export interface LocalCollector extends DevServer, CollectorState {}

export async function startLocalCollector({
  origins = [],
  vars = {},
  inspectorPort,
  signal,
  inherit,
  from,
}: LocalCollectorOptions = {}): Promise<LocalCollector> {
  const persistTo = mkdtempSync(join(tmpdir(), 'rf-collector-'));
  const removeState = () => rmSync(persistTo, { recursive: true, force: true });
  try {
    let keys: Record<KeyKind, string>;
    let provisioned: Promise<unknown> = Promise.resolve();
    if (from) {
      cpSync(from.persistTo, persistTo, { recursive: true });
      keys = from.keys;
    } else {
      copyMigratedD1(persistTo);
      const project = await provisionProject({ id: 'local', name: 'Throwaway local collector', origins });
      keys = project.keys;
      // The project is written while wrangler starts (a second saved a start), as `npm run keys` may
      // write beside a running collector; it is there before the collector is handed out.
      provisioned = queryEach(project.statements, { persistTo });
    }
    // Logging each request costs CPU the benchmarks would measure.
    const starting = startDev({ persistTo, vars, logLevel: 'warn', signal, inherit, ...(inspectorPort !== undefined && { inspectorPort }) });
    const [provision, start] = await Promise.allSettled([provisioned, starting]);
    if (start.status === 'rejected') throw start.reason;
    const server = start.value;
    if (provision.status === 'rejected') {
      await server.stop();
      throw provision.reason;
    }
    return {
      ...server,
      keys,
      persistTo,
      async stop() {
        await server.stop();
        removeState();
      },
    };
  } catch (err) {
    removeState();
    throw err;
  }
}

/**
 * Stops a collector and copies its state to a new folder (without wrangler's log), for others to
 * start from (`from`): a state that took seeding and a night's run to make is made once. The
 * caller removes the folder.
 */
export async function keepState(collector: LocalCollector): Promise<CollectorState> {
  // Stopped first: a copy of a D1 still open could miss what its engine has not written out.
  await stopProcessGroup(collector.process);
  const persistTo = mkdtempSync(join(tmpdir(), 'rf-collector-state-'));
  cpSync(collector.persistTo, persistTo, { recursive: true, filter: (path) => !path.endsWith('wrangler.log') });
  await collector.stop();
  return { persistTo, keys: collector.keys };
}

/**
 * Fills `persistTo` with a local D1 that has every migration applied: a copy of one made once per
 * set of migrations, D1 binding, wrangler version and code applying them, since applying them
 * through wrangler takes about 10 s.
 */
export function copyMigratedD1(persistTo: string): void {
  cpSync(migratedD1(), persistTo, { recursive: true, filter: (path) => !path.endsWith(MIGRATED) });
}

/**
 * Written last into a migrated copy, with the migrations `migrate` answered it applied: a folder
 * without it is not one (cut short, or half cleaned away).
 */
const MIGRATED = '.migrated.json';

/** The migrations `migrate` answered it applied when it made the migrated copy: all of them, on a new D1. */
export function migrationsAppliedToMigratedD1(): string[] {
  return JSON.parse(readFileSync(join(migratedD1(), MIGRATED), 'utf8'));
}

function migratedD1(): string {
  const hash = createHash('sha256');
  // With the code that applies them, as the copy keeps what it answered (migrationsAppliedToMigratedD1).
  for (const file of [join('node_modules', 'wrangler', 'package.json'), 'wrangler.toml', join('scripts', 'wrangler.ts')])
    hash.update(readFileSync(join(ROOT, file)));
  for (const name of migrationFiles()) hash.update(name).update(readFileSync(join(MIGRATIONS_DIR, name)));
  const dir = join(tmpdir(), `rf-migrated-d1-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(dir, MIGRATED))) return dir;
  if (existsSync(dir) && !existsSync(join(dir, MIGRATED))) rmSync(dir, { recursive: true, force: true });
  // Built aside and renamed into place, so a collector started meanwhile never copies half of it.
  const building = mkdtempSync(join(tmpdir(), 'rf-migrating-d1-'));
  try {
    const applied = migrate({ persistTo: building }, { quiet: true });
    writeFileSync(join(building, MIGRATED), JSON.stringify(applied));
    renameSync(building, dir);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    // Another process renamed its copy into place first.
    if (!existsSync(join(dir, MIGRATED))) throw err;
  }
  return dir;
}
