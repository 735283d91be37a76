import { type AddressInfo, createServer } from 'node:net';

/**
 * A free port (or `wanted`; an EADDRINUSE error if another process holds it) held by a listener until `release()`, for a server that can only start later because
 * its address must be known first (an allowed origin of the collector started before it): between
 * the two, nothing else can take it.
 */
export async function holdPort(wanted = 0): Promise<{ port: number; release: () => Promise<void> }> {
  const holder = createServer();
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.listen(wanted, '127.0.0.1', resolve);
  });
  const { port } = holder.address() as AddressInfo;
  return { port, release: () => new Promise<void>((resolve) => (holder.listening ? holder.close(() => resolve()) : resolve())) };
}

/**
 * `port` held (`holdPort`) for a server a command starts later, or refused in one line when another
 * process listens on it (the error keeps its code, EADDRINUSE): the command fails before it starts
 * anything, and nothing takes the port while it starts what comes first.
 */
export async function holdUntakenPort(port: number): Promise<{ port: number; release: () => Promise<void> }> {
  return holdPort(port).catch((err: NodeJS.ErrnoException) => {
    throw Object.assign(new Error(`port ${port} is taken by another process (${err.message})`), { code: err.code });
  });
}

/** Refuses `port` as `holdUntakenPort` does, and leaves it free: for a server started next, which takes it itself. */
export async function refuseTakenPort(port: number): Promise<void> {
  await (await holdUntakenPort(port)).release();
}

/**
 * A port nothing listens on right now, on 127.0.0.1: the system's pick for a listener on port 0,
 * closed again. Another process may take it before we do, so callers retry on a collision.
 */
export async function freePort(): Promise<number> {
  const { port, release } = await holdPort();
  await release();
  return port;
}
