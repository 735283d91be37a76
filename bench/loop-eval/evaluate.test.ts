import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trainingWorld } from '../../shared/training/fixture.ts';
import { trainReranker } from '../../shared/training/train.ts';
import { evaluator } from './evaluate.ts';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

const model = trainReranker(trainingWorld().data, { version: 'v7', now: 1_767_225_600_000 }).model;

describe('the promoted model, measured', () => {
  it('says which model is promoted even over no queries (a collection or share that leaves validation empty)', async () => {
    // A stand-in for the collector's GET /v1/reranker, serving v7.
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', etag: '"v7"' });
      res.end(JSON.stringify(model));
    });
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const chunks = [{ chunkId: 'd1', sourceDocId: 'd1', sourceDocVersion: 'x', title: '', text: 'refunds take five days' }];
    const measured = await evaluator(chunks, 30, { endpoint, serverKey: 'rfs_x' }).promoted([]);
    expect(measured).toMatchObject({ version: 'v7', errors: [], metrics: { queries: 0 } });
  });
});
