import { createServer } from 'node:net';

/**
 * A port nothing listens on right now, on 127.0.0.1: the system's pick for a listener on port 0,
 * closed again. Another process may take it before we do, so callers retry on a collision.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
