import { Hono } from 'hono';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../env.ts';
import { handleError } from '../errors.ts';
import { jsonBody } from './json-body.ts';
import { validBody } from './valid-body.ts';

const Order = v.object({
  item: v.string(),
  lines: v.array(v.object({ qty: v.pipe(v.number(), v.integer()) })),
  gift: v.optional(v.boolean(), false),
});

const app = new Hono<AppEnv>()
  .post('/', jsonBody({ maxBytes: 1024, contentTypes: ['application/json'] }), validBody(Order, 'invalid_order'), (c) => {
    const { item, lines, gift } = c.get('input');
    return c.json({ item, qty: lines.reduce((n, l) => n + l.qty, 0), gift });
  })
  .onError(handleError);

const post = (json: unknown) => app.request('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });

describe('validBody', () => {
  it("hands the handlers the schema's output", async () => {
    const res = await post({ item: 'tea', lines: [{ qty: 2 }, { qty: 3 }] });
    expect(await res.json()).toEqual({ item: 'tea', qty: 5, gift: false });
  });

  it.each([
    [{ item: 'tea', lines: [{ qty: 2 }, { qty: 1.5 }] }, 'lines[1].qty'],
    [{ lines: [] }, 'item'],
    ['tea', 'body'],
  ])('answers %j with a 400 naming %s', async (json, field) => {
    const res = await post(json);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'invalid_order', message: expect.any(String), field, fields: [{ field, message: expect.any(String) }] },
    });
  });

  it('names every bad field of a body, each once, the first of them as `field`', async () => {
    const res = await post({ item: 7, lines: [{ qty: 1.5 }, { qty: 2 }, { qty: 'x' }], gift: 'yes', colour: 'red' });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { field: string; fields: { field: string; message: string }[] } };
    expect(error.fields.map((f) => f.field)).toEqual(['item', 'lines[0].qty', 'lines[2].qty', 'gift']);
    expect(error.field).toBe('item');
    expect(error.fields[1]!.message).toContain('integer');
  });
});
