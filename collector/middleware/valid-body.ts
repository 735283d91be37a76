import type { MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { arrayForObject, fieldErrors } from '../../shared/validation.ts';
import type { AppEnv, WithInput } from '../env.ts';
import { ApiError } from '../errors.ts';

/** valibot's object schemas take an array as an object with no keys: `[]` would pass as `{}`, resetting what it replaces. */
const OBJECT_SCHEMAS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

/**
 * Validates the parsed body (`jsonBody`) against a schema: a 400 with `code` naming every bad
 * field (the first as `field`), or the schema's output as `c.var.input`, typed for the handlers that follow.
 */
export const validBody = <S extends v.GenericSchema>(schema: S, code: string): MiddlewareHandler<AppEnv & WithInput<v.InferOutput<S>>> =>
  async function validBody(c, next) {
    const body = c.get('body');
    if (Array.isArray(body) && OBJECT_SCHEMAS.has(schema.type)) {
      throw ApiError.fields(code, [{ message: 'The body must be a JSON object, not an array', field: 'body' }]);
    }
    const parsed = v.safeParse(schema, body);
    if (!parsed.success) throw ApiError.fields(code, fieldErrors(parsed.issues, '', { schema, input: body }));
    const array = arrayForObject(schema, body);
    if (array) throw ApiError.fields(code, [{ message: 'must be a JSON object, not an array', field: array }]);
    c.set('input', parsed.output);
    await next();
  };
