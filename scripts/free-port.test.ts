import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { holdPort, holdUntakenPort, refuseTakenPort } from './free-port.ts';

const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

describe('holdPort', () => {
  it('keeps a port from every other listener until released, then lets the server meant for it take it', async () => {
    const held = await holdPort();
    await expect(listenOn(held.port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await held.release();
    await held.release(); // twice is harmless: callers release on every way out
    const server = await listenOn(held.port);
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('refuseTakenPort', () => {
  it('refuses a port another process listens on in one line naming it, and leaves a free one free', async () => {
    const held = await holdPort();
    try {
      await expect(refuseTakenPort(held.port)).rejects.toMatchObject({
        code: 'EADDRINUSE',
        message: `port ${held.port} is taken by another process (listen EADDRINUSE: address already in use 127.0.0.1:${held.port})`,
      });
    } finally {
      await held.release();
    }
    await refuseTakenPort(held.port);
    const server = await listenOn(held.port);
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('holdUntakenPort', () => {
  it('holds the port given from every other listener until released, and refuses a taken one as refuseTakenPort does', async () => {
    const free = await holdPort();
    await free.release();
    const held = await holdUntakenPort(free.port);
    try {
      await expect(listenOn(free.port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
      await expect(holdUntakenPort(free.port)).rejects.toThrow(`port ${free.port} is taken by another process`);
    } finally {
      await held.release();
    }
    const server = await listenOn(free.port);
    await new Promise((resolve) => server.close(resolve));
  });
});
