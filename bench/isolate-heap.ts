/**
 * The Worker's own V8 heap under `wrangler dev`, read through its inspector (Chrome DevTools
 * Protocol, `Runtime.getHeapUsage`). The workerd process also runs the local D1 and its own
 * isolates, so its resident memory is more than the Worker uses; on Cloudflare an isolate may use
 * 128 MB, and this is the figure to hold against that.
 *
 * The inspector is answered only when the isolate is free, mostly between requests, so the
 * largest heap in use seen is a lower bound of the true peak; the reserved size, which V8 keeps
 * for a while after a peak, is the closer bound. Both count garbage not yet collected, and V8
 * collects lazily when it has room, as it has locally: a reading says how much the isolate
 * allocated between collections, not how much it kept. `sampleNow` after each call makes sure
 * the heap is read at least then.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import WebSocket from 'ws';

export interface HeapSampler {
  /**
   * Largest heap in use seen, and the largest the isolate had reserved, in MB; with
   * `collectEveryMs`, also the largest heap in use right after a forced collection: live data.
   */
  peak(): { usedMb: number; totalMb: number; liveMb?: number };
  /** Largest heap in use since the last call of this (or since sampling began), in MB. */
  windowPeakMb(): number;
  /** The same for live data, with `collectEveryMs`: undefined when no collection was read since. */
  windowLiveMb(): number | undefined;
  /** Reads the heap now and resolves with the reading (after at most 10 s). */
  sampleNow(): Promise<void>;
  stop(): void;
}

interface HeapUsage {
  usedSize: number;
  totalSize: number;
}

/** How often the heap is read: a slice takes a few hundred ms, and garbage collection runs within it. */
const SAMPLE_MS = 100;

/** Starts sampling the Worker's heap through the inspector on `port` (`wrangler dev --inspector-port`). */
export async function sampleIsolateHeap(port: number, options: { collectEveryMs?: number } = {}): Promise<HeapSampler> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  if (!targets[0]) throw new Error(`the inspector on port ${port} lists no Worker`);
  return sampleHeap(targets[0].webSocketDebuggerUrl, options);
}

/** One isolate of a workerd process, as its own inspector lists it. */
export interface IsolateTarget {
  /** The service it runs: `core:user:<name>` for the Worker, `d1:db:<id>` for the local D1. */
  id: string;
  webSocketDebuggerUrl: string;
}

/**
 * Every isolate of the workerd process `pid`, from the inspector it opens for wrangler (which
 * passes on only the Worker's): the ports the process listens on, and the one whose `/json`
 * lists them. Linux only (/proc); empty when none answers.
 */
export async function workerdIsolates(pid: number): Promise<IsolateTarget[]> {
  if (!existsSync(`/proc/${pid}/fd`)) return [];
  for (const port of listeningPorts(pid)) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(2_000) });
      const list = (await res.json()) as IsolateTarget[];
      if (Array.isArray(list) && list.some((t) => typeof t.id === 'string' && t.id.startsWith('core:user:'))) return list;
    } catch {
      // Not an inspector: the Worker's own sockets answer other things.
    }
  }
  return [];
}

/** TCP ports `pid` listens on: its sockets' inodes matched against the kernel's table. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = link.match(/^socket:\[(\d+)\]$/)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    // local address, state 0A (listening), inode
    if (f[3] === '0A' && inodes.has(f[9]!)) ports.push(Number.parseInt(f[1]!.split(':')[1]!, 16));
  }
  return ports;
}

/**
 * Starts sampling one isolate's heap through its inspector's WebSocket. With `collectEveryMs`, it
 * also forces a full collection that often (`HeapProfiler.collectGarbage`, served when the isolate
 * waits, as on D1) and reads the heap right after: what is then in use is live. Each collection
 * costs the isolate time, so a timed run should not ask for it.
 */
export async function sampleHeap(webSocketDebuggerUrl: string, options: { collectEveryMs?: number } = {}): Promise<HeapSampler> {
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let used = 0;
  let total = 0;
  let windowUsed = 0;
  let live: number | undefined;
  let windowLive: number | undefined;
  let id = 0;
  const waiting = new Map<number, () => void>();
  /** Readings asked for right behind a collection. */
  const afterCollection = new Set<number>();
  ws.on('message', (data) => {
    const reply = JSON.parse(String(data)) as { id?: number; result?: HeapUsage };
    if (reply.result?.usedSize === undefined) return;
    if (reply.id !== undefined && afterCollection.delete(reply.id)) {
      live = Math.max(live ?? 0, reply.result.usedSize);
      windowLive = Math.max(windowLive ?? 0, reply.result.usedSize);
    }
    used = Math.max(used, reply.result.usedSize);
    windowUsed = Math.max(windowUsed, reply.result.usedSize);
    total = Math.max(total, reply.result.totalSize);
    if (reply.id !== undefined) waiting.get(reply.id)?.();
  });
  const ask = () => {
    ws.send(JSON.stringify({ id: ++id, method: 'Runtime.getHeapUsage' }));
    return id;
  };
  const timer = setInterval(ask, SAMPLE_MS);
  const collector =
    options.collectEveryMs === undefined
      ? undefined
      : setInterval(() => {
          // Both at once: the isolate serves queued commands together, in order, when it next runs
          // (a reading asked for on the collection's reply would wait for the moment after).
          ws.send(JSON.stringify({ id: ++id, method: 'HeapProfiler.collectGarbage' }));
          afterCollection.add(ask());
        }, options.collectEveryMs);
  return {
    peak: () => ({ usedMb: used / 2 ** 20, totalMb: total / 2 ** 20, ...(live !== undefined && { liveMb: live / 2 ** 20 }) }),
    sampleNow: () =>
      new Promise<void>((resolve) => {
        const asked = ask();
        const done = () => {
          waiting.delete(asked);
          clearTimeout(giveUp);
          resolve();
        };
        const giveUp = setTimeout(done, 10_000);
        waiting.set(asked, done);
      }),
    windowPeakMb: () => {
      const mb = windowUsed / 2 ** 20;
      windowUsed = 0;
      return mb;
    },
    windowLiveMb: () => {
      const mb = windowLive === undefined ? undefined : windowLive / 2 ** 20;
      windowLive = undefined;
      return mb;
    },
    stop: () => {
      clearInterval(timer);
      clearInterval(collector);
      ws.close();
    },
  };
}
