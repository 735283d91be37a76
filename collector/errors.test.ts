import { describe, expect, it } from 'vitest';
import { faultsIn } from '../shared/validation.ts';
import { ApiError } from './errors.ts';

describe('ApiError', () => {
  it('builds a 400 from the fields at fault, the first as field and message', () => {
    const err = ApiError.fields('invalid_query', [
      { field: 'query.limit', message: 'is too large' },
      { field: 'query.colour', message: 'is not a parameter this takes' },
    ]);
    expect([err.status, err.code, err.field, err.message, err.fields?.length]).toEqual([400, 'invalid_query', 'query.limit', 'is too large', 2]);
  });

  it('cannot be a 400 naming no field: the types refuse it', () => {
    // Never called: `npm run check`, which `npm test` runs first, fails if any of these compiles.
    const refused = () => {
      // @ts-expect-error a 400 is built by ApiError.fields, with its fields
      new ApiError(400, { code: 'invalid_body', message: 'Bad body' });
      // @ts-expect-error one field at least
      ApiError.fields('invalid_body', []);
      // @ts-expect-error nor by listing none
      new ApiError(400, { code: 'invalid_body', message: 'Bad body', fields: [] });
    };
    expect(refused).toBeTypeOf('function');
    expect(new ApiError(404, { code: 'not_found', message: 'No such item' }).fields).toBeUndefined();
  });

  it("names the part checked when a check failed without naming a field, and the check's fields when it did", () => {
    expect(faultsIn('query', [])).toEqual([{ field: 'query', message: 'is not valid' }]);
    const named = [{ field: 'body.name', message: 'is required' }];
    expect(faultsIn('body', named)).toEqual(named);
  });
});
