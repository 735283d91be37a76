/**
 * The benchmark's database: a migrated local D1 in wrangler's folder holding one provisioned
 * project's month, generated now or copied from the folder where an earlier run kept one of the
 * same scale and receipt (then migrated, so a new migration applies to it as it would to a
 * production database).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { provisionProject } from '../../collector/auth/provision.ts';
import { d1File, migrate } from '../../scripts/wrangler.ts';
import { count } from '../stats.ts';
import { type Generated, generate, type Receipt, volumeAt } from './generate.ts';
import { DATA_DIR, SCALE } from './options.ts';

/** The one project the benchmark's month belongs to. */
export const BENCH_PROJECT = 'bench';

export interface DatabaseOptions {
  /** wrangler's state folder (`--persist-to`). */
  persistTo: string;
  receipt: Receipt;
  /** Where the month ends, when it is generated now. */
  now: number;
  log: (line: string) => void;
}

const ADMIN_KEY_FILE = 'admin-key';

/** The month at BENCH_NIGHTLY_SCALE, kept in BENCH_NIGHTLY_DATA (one folder per scale and receipt) when it is set. */
export async function generatedDatabase(o: DatabaseOptions): Promise<{ data: Generated; file: string; adminKey: string }> {
  const { persistTo, log } = o;
  const kept = DATA_DIR ? join(DATA_DIR, `scale-${SCALE}${o.receipt === 'imported' ? '' : `-${o.receipt}`}`) : undefined;
  if (kept && existsSync(join(kept, 'generated.json'))) {
    log(`copying the database generated earlier in ${kept}…`);
    cpSync(join(kept, 'state'), persistTo, { recursive: true });
    migrate({ persistTo }, { quiet: true });
    const data = JSON.parse(readFileSync(join(kept, 'generated.json'), 'utf8')) as Generated;
    return { data, file: d1File(persistTo), adminKey: readFileSync(join(kept, ADMIN_KEY_FILE), 'utf8') };
  }
  migrate({ persistTo }, { quiet: true });
  const file = d1File(persistTo);
  const project = await provisionProject({ id: BENCH_PROJECT, name: 'Nightly benchmark', origins: [] });
  const db = new Database(file);
  db.exec(project.statements.join('\n'));
  db.close();
  const volume = volumeAt(SCALE);
  log(`generating ${count(volume.traces)} traces over ${count(volume.chunks)} chunks (scale ${SCALE}, ${o.receipt})…`);
  const data = generate(file, BENCH_PROJECT, volume, o.now, o.receipt);
  if (kept) {
    rmSync(kept, { recursive: true, force: true });
    mkdirSync(kept, { recursive: true });
    cpSync(persistTo, join(kept, 'state'), { recursive: true });
    writeFileSync(join(kept, 'generated.json'), JSON.stringify(data));
    writeFileSync(join(kept, ADMIN_KEY_FILE), project.keys.admin);
    log(`kept the generated database in ${kept}`);
  }
  return { data, file, adminKey: project.keys.admin };
}
