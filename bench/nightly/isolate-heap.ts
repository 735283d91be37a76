/**
 * The Worker's own V8 heap under `wrangler dev`, read through its inspector (Chrome DevTools
 * Protocol, `Runtime.getHeapUsage`). The workerd process also runs the local D1 and its own
 * isolates, so its resident memory is more than the Worker uses; on Cloudflare an isolate may use
 * 128 MB, and this is the figure to hold against that.
 */
import WebSocket from 'ws';

export interface HeapSampler {
  /** Largest heap in use seen, and the largest the isolate had reserved, in MB. */
  peak(): { usedMb: number; totalMb: number };
  /** Largest heap in use since the last call of this (or since sampling began), in MB. */
  windowPeakMb(): number;
  stop(): void;
}

interface HeapUsage {
  usedSize: number;
  totalSize: number;
}

/** How often the heap is read: a slice takes a few hundred ms, and garbage collection runs within it. */
const SAMPLE_MS = 100;

/** Starts sampling the Worker's heap through the inspector on `port` (`wrangler dev --inspector-port`). */
export async function sampleIsolateHeap(port: number): Promise<HeapSampler> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  if (!targets[0]) throw new Error(`the inspector on port ${port} lists no Worker`);
  const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let used = 0;
  let total = 0;
  let windowUsed = 0;
  let id = 0;
  ws.on('message', (data) => {
    const reply = JSON.parse(String(data)) as { result?: HeapUsage };
    if (reply.result?.usedSize === undefined) return;
    used = Math.max(used, reply.result.usedSize);
    windowUsed = Math.max(windowUsed, reply.result.usedSize);
    total = Math.max(total, reply.result.totalSize);
  });
  // A request sent while the Worker runs JavaScript is answered between two of its tasks.
  const timer = setInterval(() => ws.send(JSON.stringify({ id: ++id, method: 'Runtime.getHeapUsage' })), SAMPLE_MS);
  return {
    peak: () => ({ usedMb: used / 2 ** 20, totalMb: total / 2 ** 20 }),
    windowPeakMb: () => {
      const mb = windowUsed / 2 ** 20;
      windowUsed = 0;
      return mb;
    },
    stop: () => {
      clearInterval(timer);
      ws.close();
    },
  };
}
