import { describe, expect, it } from 'vitest';
import { DemoError } from './errors.ts';

describe('DemoError', () => {
  it('builds a 400 from the fields at fault, the first as field and message', () => {
    const err = DemoError.fields('invalid_request', [
      { field: 'query', message: 'is required' },
      { field: 'turnIndex', message: 'must be a whole number' },
    ]);
    expect([err.status, err.code, err.field, err.message, err.fields?.length]).toEqual([400, 'invalid_request', 'query', 'is required', 2]);
  });

  it('cannot be a 400 naming no field: the types refuse it', () => {
    // Never called: `npm run check`, which `npm test` runs first, fails if any of these compiles.
    const refused = () => {
      // @ts-expect-error a 400 is built by DemoError.fields, with its fields
      new DemoError(400, 'invalid_request', 'Bad body', 'body');
      // @ts-expect-error one field at least
      DemoError.fields('invalid_request', []);
      // @ts-expect-error nor by listing none
      new DemoError(400, 'invalid_request', 'Bad body', 'body', []);
    };
    expect(refused).toBeTypeOf('function');
    expect(new DemoError(415, 'unsupported_media_type', 'Content-Type must be application/json', 'content-type').fields).toBeUndefined();
  });
});
