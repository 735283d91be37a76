/**
 * A night in steady state: the nightly benchmark's month (1M traces and ~5M events at full scale)
 * received as it was made rather than imported at once, the job caught up to the day before the
 * month ends (timed, but not against the budget), then the month's last night run alone in a
 * fresh `wrangler dev`: time per stage and in all, the longest slice and the Worker's peak memory,
 * against the job's budgets. The month ends on a Thursday, so its last night is mid-week: the
 * week's eval sets were built the night before, as on six nights of seven. Then the next week's
 * first night, the Monday after (nothing new has arrived by then): the one night a week that also
 * builds the week's eval sets from the month's labels. Last, the Tuesday after with the raw rows'
 * retention set so that the month's first day and a half are due by the real clock (retention
 * never purges ahead of it): a night that also purges, as every night does once a project is
 * older than its retention (the month is shorter than the default 90 days, so the other nights
 * purge nothing). The last night is also run on a copy of the database with that retention: a day's
 * traffic and a purge in one night, as every night of a project older than its retention has.
 *
 *   npm run bench -- nightly-steady
 *
 * BENCH_NIGHTLY_SCALE, BENCH_NIGHTLY_CAP_S and BENCH_NIGHTLY_DATA work as for `nightly` (the
 * database kept is this suite's own, `scale-<scale>-live`); BENCH_NIGHTLY_KEEP=1 keeps the folder.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { NO_RATE_LIMITS } from '../scripts/local-collector.ts';
import { BENCH_PROJECT, generatedDatabase } from './nightly/database.ts';
import { type DrivenRun, driveNightly, heapRows, startBenchDev } from './nightly/drive.ts';
import { CAP_MS, inBenchFolder } from './nightly/options.ts';
import { count, type Row, row, seconds } from './stats.ts';

const SUITE = 'nightly-steady';
const DAY = 86_400_000;
/** From the Thursday the month ends on to the next Monday: a new week, whose first night builds its eval sets. */
const NEXT_MONDAY_MS = 4 * DAY;
/** The Tuesday after: a night that also purges the month's first day and a half (it starts at noon). */
const PURGE_NIGHT_MS = 5 * DAY;

const log = (line: string) => console.error(`  ${SUITE}: ${line}`);
const total = (run: DrivenRun) => run.callsMs.reduce((a, b) => a + b, 0);
const purgeCounts = (stage: DrivenRun['stages'][number]) =>
  `${count(Number(stage.counts.events ?? 0))} events, ${count(Number(stage.counts.traces ?? 0))} traces`;

/** Noon UTC of the latest Thursday before `ms`: a mid-week night whatever day the benchmark runs. */
function lastThursdayNoon(ms: number): number {
  const d = new Date(ms);
  const thursday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12) - ((d.getUTCDay() + 3) % 7) * DAY;
  return thursday > ms ? thursday - 7 * DAY : thursday;
}

/**
 * Days of raw-row retention that leave due the month's rows received before the end of its second
 * UTC day, for a night whose retention counts from `at` (the night's time, or the real clock for a
 * night ahead of it: retention never purges ahead of the real clock).
 */
function retentionDueAfterSecondDay(file: string, at: number): number {
  const db = new Database(file, { readonly: true });
  try {
    const { first } = db.prepare('select min(received_at) as first from traces where project_id = ?').get(BENCH_PROJECT) as { first: number };
    const cutoff = Math.floor(first / DAY) * DAY + 2 * DAY;
    return Math.round((Math.floor(at / DAY) * DAY - cutoff) / DAY);
  } finally {
    db.close();
  }
}

/** What the last day brought: the rows received in its window. */
function lastDay(file: string, from: number, to: number): { traces: number; events: number } {
  const db = new Database(file, { readonly: true });
  try {
    const n = (table: string) =>
      (
        db.prepare(`select count(*) as n from ${table} where project_id = ? and received_at > ? and received_at <= ?`).get(BENCH_PROJECT, from, to) as {
          n: number;
        }
      ).n;
    return { traces: n('traces'), events: n('feedback_events') };
  } finally {
    db.close();
  }
}

/** The project's settings with `retentionDays` changed, through the admin API. */
async function setRetentionDays(url: string, adminKey: string, retentionDays: number): Promise<void> {
  const headers = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };
  const settings = (await (await fetch(`${url}/v1/admin/settings`, { headers })).json()) as Record<string, unknown>;
  const res = await fetch(`${url}/v1/admin/settings`, { method: 'PUT', headers, body: JSON.stringify({ ...settings, retentionDays }) });
  if (!res.ok) throw new Error(`PUT /v1/admin/settings answered ${res.status}: ${await res.text()}`);
}

/** One run of the job in its own `wrangler dev`, so its memory is its own. */
async function night(persistTo: string, adminKey: string, at: number, retentionDays?: number): Promise<DrivenRun> {
  const server = await startBenchDev({ persistTo, vars: NO_RATE_LIMITS, logLevel: 'info' });
  try {
    if (retentionDays !== undefined) await setRetentionDays(server.url, adminKey, retentionDays);
    const run = await driveNightly(server, adminKey, CAP_MS, log, join(persistTo, 'wrangler.log'), at);
    if (!run.done) throw new Error(`the night of ${new Date(at).toISOString()} was not done after ${seconds(CAP_MS)} s (in ${run.stage})`);
    return run;
  } finally {
    await server.stop();
  }
}

export async function nightlySteadyBench(): Promise<Row[]> {
  return inBenchFolder('rf-nightly-steady-', log, async (dir) => {
    const persistTo = join(dir, 'state');
    const { data, file, adminKey } = await generatedDatabase({ persistTo, receipt: 'live', now: lastThursdayNoon(Date.now()), log });
    const end = data.now;
    const day = lastDay(file, end - DAY, end);
    log(`${count(data.traces)} traces and ${count(data.events)} events over the month; the last day ${count(day.traces)} traces, ${count(day.events)} events`);
    log('catching up to the day before the month ends…');
    const catchUp = await night(persistTo, adminKey, end - DAY);
    const copy = join(dir, 'state-purging');
    cpSync(persistTo, copy, { recursive: true });
    // Written out before the night starts: otherwise the copy's gigabytes are flushed during it.
    execFileSync('sync');
    const lastRetentionDays = retentionDueAfterSecondDay(file, end);
    log(`the last night, on a copy with retentionDays ${lastRetentionDays}…`);
    const lastPurging = await night(copy, adminKey, end, lastRetentionDays);
    rmSync(copy, { recursive: true, force: true });
    log('the last night…');
    const last = await night(persistTo, adminKey, end);
    log("the next week's first night…");
    const weekly = await night(persistTo, adminKey, end + NEXT_MONDAY_MS);
    const retentionDays = retentionDueAfterSecondDay(file, Math.min(end + PURGE_NIGHT_MS, Date.now()));
    log(`a night that purges: the Tuesday after, with retentionDays ${retentionDays}…`);
    const purging = await night(persistTo, adminKey, end + PURGE_NIGHT_MS, retentionDays);
    for (const [name, run] of [
      ['the last night', last],
      ['the last night, also purging', lastPurging],
      ["the next week's first night", weekly],
      ['the night that purges', purging],
    ] as const) {
      console.error(`\n${name}, per stage:`);
      console.table(run.stages.map((s) => ({ stage: s.name, slices: s.slices, ms: s.ms, counts: JSON.stringify(s.counts) })));
    }
    const one = (name: string, unit: string, value: number, budget?: string) => row(SUITE, name, unit, [value], budget);
    const longest = [...last.stages].sort((a, b) => b.ms / Math.max(1, b.slices) - a.ms / Math.max(1, a.slices))[0];
    const evals = weekly.stages.find((s) => s.name === 'evals');
    const purged = purging.stages.find((s) => s.name === 'retention');
    const purgedToo = lastPurging.stages.find((s) => s.name === 'retention');
    return [
      one(
        `month: ${count(data.traces)} traces, ${count(data.events)} events received as made; the job caught up to the day before (not in the budget)`,
        's',
        seconds(total(catchUp)),
      ),
      one(`the last day: ${count(day.traces)} traces, ${count(day.events)} events received`, 'traces', day.traces),
      ...last.stages.map((s) => one(`last night: stage ${s.name}, ${count(s.slices)} slices`, 's', seconds(s.ms))),
      one(`last night: whole job, ${last.callsMs.length} POST /v1/admin/nightly`, 's', seconds(total(last)), '<= 60'),
      ...(longest
        ? [one(`last night: longest mean slice (${longest.name}, ${count(longest.slices)} slices)`, 's', seconds(longest.ms / Math.max(1, longest.slices)))]
        : []),
      one("last night: peak RSS of the Worker's workerd process (sampled every 100 ms)", 'MB', last.peakRssMb, '<= 512'),
      ...heapRows(SUITE, 'last night: ', last),
      ...(purgedToo
        ? [one(`last night, also purging: stage retention, ${count(purgedToo.slices)} slices (${purgeCounts(purgedToo)})`, 's', seconds(purgedToo.ms))]
        : []),
      one(`last night, also purging: whole job, ${lastPurging.callsMs.length} POST /v1/admin/nightly`, 's', seconds(total(lastPurging)), '<= 60'),
      one("last night, also purging: peak RSS of the Worker's workerd process", 'MB', lastPurging.peakRssMb, '<= 512'),
      ...(evals ? [one(`next week's first night: stage evals, ${count(evals.slices)} slices`, 's', seconds(evals.ms))] : []),
      one(`next week's first night: whole job, ${weekly.callsMs.length} POST /v1/admin/nightly`, 's', seconds(total(weekly)), '<= 60'),
      one("next week's first night: peak RSS of the Worker's workerd process", 'MB', weekly.peakRssMb, '<= 512'),
      ...heapRows(SUITE, "next week's first night: ", weekly),
      ...(purged ? [one(`night that purges: stage retention, ${count(purged.slices)} slices (${purgeCounts(purged)})`, 's', seconds(purged.ms))] : []),
      one(`night that purges: whole job, ${purging.callsMs.length} POST /v1/admin/nightly`, 's', seconds(total(purging)), '<= 60'),
      one("night that purges: peak RSS of the Worker's workerd process", 'MB', purging.peakRssMb, '<= 512'),
    ];
  });
}
