import { describe, expect, it } from 'vitest';
import { stopAll, stopOnFailure } from './start-stop.ts';

/** A server and a demo that record, in order, what was done to them. */
function fakes(closeFails = false) {
  const done: string[] = [];
  const server = {
    async stop() {
      done.push('server stopped');
    },
  };
  const demo = {
    async close() {
      // A flush takes a while: a stop started alongside would finish first.
      await new Promise((r) => setTimeout(r, 20));
      done.push('demo closed');
      if (closeFails) throw new Error('flush failed');
    },
  };
  return { done, server, demo };
}

describe('stopOnFailure', () => {
  it('stops the server before a failing step’s error goes on', async () => {
    const { done, server } = fakes();
    const failure = stopOnFailure(server, async () => {
      done.push('step');
      throw new Error('listen EADDRINUSE: address already in use 127.0.0.1:5173');
    });
    await expect(failure).rejects.toThrow(/EADDRINUSE/);
    expect(done).toEqual(['step', 'server stopped']);
  });

  it('leaves the server running when the steps succeed, and gives their result', async () => {
    const { done, server } = fakes();
    await expect(stopOnFailure(server, async () => 'demo')).resolves.toBe('demo');
    expect(done).toEqual([]);
  });
});

describe('stopAll', () => {
  it('stops the collector only once the demo has sent its traces', async () => {
    const { done, server, demo } = fakes();
    await stopAll(demo, server);
    expect(done).toEqual(['demo closed', 'server stopped']);
  });

  it('still stops the collector when the demo fails to close', async () => {
    const { done, server, demo } = fakes(true);
    await expect(stopAll(demo, server)).rejects.toThrow('flush failed');
    expect(done).toEqual(['demo closed', 'server stopped']);
  });
});
