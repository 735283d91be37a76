/**
 * Runs the nightly job under `wrangler dev` the way an operator does: POST /v1/admin/nightly again
 * until it answers `done` (each call stops after the job's own budget), or until `capMs` has gone
 * by, while sampling the resident memory of the workerd process that runs the Worker and its D1.
 * Nothing else calls the Worker meanwhile (finding workerd's inspector asks each of its ports once,
 * before the first call): a GET during a long call waits for the whole call.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { freePort } from '../../scripts/free-port.ts';
import { type DevOptions, type DevServer, startDev } from '../../scripts/wrangler.ts';
import type { NightlySummary, StageReport } from '../../shared/admin-api/nightly.ts';
import { type HeapSampler, sampleHeap, sampleIsolateHeap, workerdIsolates } from '../isolate-heap.ts';
import { type Row, row } from '../stats.ts';
import { LIVE_HEAP_MS } from './options.ts';

export interface DrivenRun {
  done: boolean;
  /** Where the run stands when it is not done. */
  stage: string | null;
  /** Wall time of each POST /v1/admin/nightly. */
  callsMs: number[];
  stages: StageReport[];
  /** Resident memory of the Worker's workerd process before the first call (wrangler dev idle). */
  idleRssMb: number;
  /** Most resident memory of the Worker's workerd process seen while sampling, and the kernel's own peak (VmHWM). */
  peakRssMb: number;
  hwmMb: number;
  /** The Worker isolate's own V8 heap at its largest (in use, and reserved), when the server has an inspector. */
  heap?: { usedMb: number; totalMb: number; liveMb?: number };
  /**
   * The same for the local D1's isolates in the same process (summed): memory of `wrangler dev`'s
   * database emulation, which on Cloudflare runs apart from the Worker.
   */
  d1Heap?: { usedMb: number; totalMb: number };
  /** Worker processes seen: more than one when wrangler had to start another. */
  runtimes: number;
  workerCmd: string;
}

/** node:http with no timeout: a call takes as long as its last slice does. */
export function post(url: string, key?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: key ? { authorization: `Bearer ${key}` } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** wrangler's proxy answers this, without reaching the Worker, to a POST it cannot retry by itself. */
const RESTARTED = /restarted mid-request/;
const ATTEMPTS = 3;

/**
 * One call of the job. The call right after a long one sometimes meets wrangler's proxy while it
 * reconnects to the runtime, and gets "Your worker restarted mid-request" at once: it is sent
 * again. That is safe for this endpoint whatever happened: a run continues from the last slice it saved.
 */
async function callNightly(url: string, key: string, log: (line: string) => void, at?: number): Promise<NightlySummary> {
  for (let attempt = 1; ; attempt++) {
    const { status, text } = await post(`${url}/v1/admin/nightly${at === undefined ? '' : `?at=${at}&simulate=true`}`, key);
    if (status === 200) return JSON.parse(text) as NightlySummary;
    if (!(status === 503 && RESTARTED.test(text)) || attempt === ATTEMPTS) throw new Error(`POST /v1/admin/nightly answered ${status}: ${text.slice(0, 500)}`);
    log(`wrangler's proxy answered "${text.slice(0, 40)}…"; calling again`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** The workerd process that runs the Worker (and the local D1): the one that is not wrangler's proxy. */
export function workerProcess(server: DevServer): { pid: number; cmd: string } {
  const pids = execSync(`pgrep -g ${server.process.pid} || true`).toString().split('\n').filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmd.includes('workerd') && !cmd.includes(`entry=127.0.0.1:${server.port} `)) return { pid, cmd };
    } catch {
      // exited meanwhile
    }
  }
  throw new Error(`no workerd process running the Worker among ${pids.join(', ')}`);
}

function memoryKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1] ?? 0);
}

/**
 * What the Worker and wrangler logged that is not debug chatter, from wrangler's log file: wrangler
 * dev writes the Worker's console there, not to its output, when it is not in a terminal.
 */
function loggedLines(file: string | undefined, lines = 60): string {
  if (!file || !existsSync(file)) return '';
  const out: string[] = [];
  let level = '';
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const header = line.match(/^--- \S+ (\w+)/);
    if (header) level = header[1]!;
    else if (level !== 'debug' && line.trim() && line !== '---') out.push(line);
  }
  return out.slice(-lines).join('\n');
}

/** `wrangler dev` for the job's benchmarks: with its inspector open, so the Worker's own heap can be read. */
export async function startBenchDev(options: DevOptions): Promise<DevServer> {
  return startDev({ ...options, inspectorPort: await freePort() });
}

/** Drives tonight's run, or with `at` the night of that moment. */
export async function driveNightly(
  server: DevServer,
  adminKey: string,
  capMs: number,
  log: (line: string) => void,
  logFile?: string,
  at?: number,
): Promise<DrivenRun> {
  const worker = workerProcess(server);
  // What wrangler and the Worker say meanwhile, to explain a failed call.
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
  server.process.stdout?.on('data', keep);
  server.process.stderr?.on('data', keep);
  let current = worker;
  const idleKb = memoryKb(current.pid, 'VmRSS');
  let peakKb = idleKb;
  let hwmKb = 0;
  let runtimes = 1;
  // wrangler starts another runtime when the Worker's process goes away (or its sources change):
  // the peak is then the largest of all of them.
  const sample = () => {
    try {
      peakKb = Math.max(peakKb, memoryKb(current.pid, 'VmRSS'));
      hwmKb = Math.max(hwmKb, memoryKb(current.pid, 'VmHWM'));
    } catch {
      try {
        current = workerProcess(server);
        runtimes++;
        log(`the Worker's process went away; wrangler runs another (${current.pid})`);
      } catch {
        // between two runtimes
      }
    }
  };
  const sampler = setInterval(sample, 100);
  let heap: HeapSampler | undefined;
  // The local D1's isolates in the Worker's first process (a later one is not followed).
  const d1: HeapSampler[] = [];
  const d1Peak = () => d1.reduce((sum, h) => ({ usedMb: sum.usedMb + h.peak().usedMb, totalMb: sum.totalMb + h.peak().totalMb }), { usedMb: 0, totalMb: 0 });

  const callsMs: number[] = [];
  let summary: NightlySummary;
  let slicesBefore = new Map<string, number>();
  try {
    if (server.inspectorPort !== undefined) heap = await sampleIsolateHeap(server.inspectorPort, { collectEveryMs: LIVE_HEAP_MS });
    for (const target of await workerdIsolates(worker.pid)) if (target.id.startsWith('d1:')) d1.push(await sampleHeap(target.webSocketDebuggerUrl));
    do {
      const start = performance.now();
      summary = await callNightly(server.url, adminKey, log, at).catch((err: Error) => {
        throw new Error(`${err.message}\nwrangler said:\n${output}\nits log file (${logFile}) said:\n${loggedLines(logFile)}`);
      });
      callsMs.push(performance.now() - start);
      // Once the Worker's process is another, the first one's D1 isolates answer no more.
      await Promise.all([heap?.sampleNow(), ...(runtimes === 1 ? d1.map((h) => h.sampleNow()) : [])]);
      const stages = summary.runs[0]?.stages ?? [];
      const worked = stages.filter((st) => st.slices > (slicesBefore.get(st.name) ?? 0)).map((st) => st.name);
      slicesBefore = new Map(stages.map((st) => [st.name, st.slices]));
      log(
        `call ${callsMs.length} (${worked.join(', ')}): ${Math.round(callsMs.at(-1)!)} ms, ${summary.done ? 'done' : `continues at ${summary.runs[0]!.stage}`}, RSS ${Math.round(peakKb / 1024)} MB` +
          (heap ? `, the Worker's heap in use up to ${Math.round(heap.windowPeakMb())} MB in this call` : '') +
          (heap && LIVE_HEAP_MS ? `, live ${Math.round(heap.windowLiveMb() ?? 0)} MB` : '') +
          (d1.length ? `, the local D1's ${Math.round(d1.reduce((sum, h) => sum + h.windowPeakMb(), 0))} MB` : ''),
      );
    } while (!summary.done && callsMs.reduce((a, b) => a + b, 0) < capMs);
  } finally {
    clearInterval(sampler);
    heap?.stop();
    for (const h of d1) h.stop();
    sample();
  }
  const run = summary.runs[0]!;
  return {
    done: summary.done,
    stage: run.stage,
    callsMs,
    stages: run.stages,
    idleRssMb: idleKb / 1024,
    peakRssMb: peakKb / 1024,
    hwmMb: hwmKb / 1024,
    ...(heap && { heap: heap.peak() }),
    ...(d1.length > 0 && { d1Heap: d1Peak() }),
    runtimes,
    workerCmd: current.cmd,
  };
}

/** Cloudflare's memory limit for one Worker isolate, in MB. */
const ISOLATE_LIMIT_MB = 128;

/** The report's rows for the Worker isolate's own heap, when it was read. */
export function heapRows(suite: string, prefix: string, run: DrivenRun): Row[] {
  if (!run.heap) return [];
  return [
    // No budget mark: the readings include garbage not yet collected, so they cannot say whether live data fits the isolate's limit.
    row(
      suite,
      `${prefix}the Worker isolate's V8 heap in use at its largest, garbage included, through its inspector (Cloudflare gives an isolate ${ISOLATE_LIMIT_MB} MB)`,
      'MB',
      [run.heap.usedMb],
    ),
    row(suite, `${prefix}the Worker isolate's V8 heap reserved at its largest`, 'MB', [run.heap.totalMb]),
    ...(run.heap.liveMb === undefined
      ? []
      : [
          row(
            suite,
            `${prefix}the Worker isolate's live heap at its largest (in use right after a forced collection)`,
            'MB',
            [run.heap.liveMb],
            `<= ${ISOLATE_LIMIT_MB}`,
          ),
        ]),
    ...(run.d1Heap
      ? [
          row(suite, `${prefix}the local D1's isolates' V8 heap in use at its largest (wrangler dev's emulation, not the Worker's)`, 'MB', [run.d1Heap.usedMb]),
          row(suite, `${prefix}the local D1's isolates' V8 heap reserved at its largest`, 'MB', [run.d1Heap.totalMb]),
        ]
      : []),
  ];
}
