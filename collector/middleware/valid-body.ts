import type { MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { arrayForObject, type FieldErrors, faultsIn, fieldErrors } from '../../shared/validation.ts';
import type { AppEnv, WithInput } from '../env.ts';
import { type Checked, checkedValue } from '../errors.ts';

/** valibot's object schemas take an array as an object with no keys: `[]` would pass as `{}`, resetting what it replaces. */
const OBJECT_SCHEMAS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest']);

/** Checks `body` against a schema: the schema's output, or every bad field under `code`. */
export function checkBody<S extends v.GenericSchema>(schema: S, code: string, body: unknown): Checked<v.InferOutput<S>> {
  const refused = (fields: FieldErrors) => ({ ok: false, code, fields }) as const;
  if (Array.isArray(body) && OBJECT_SCHEMAS.has(schema.type)) return refused([{ message: 'The body must be a JSON object, not an array', field: 'body' }]);
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) return refused(faultsIn('body', fieldErrors(parsed.issues, '', { schema, input: body })));
  const array = arrayForObject(schema, body);
  if (array) return refused([{ message: 'must be a JSON object, not an array', field: array }]);
  return { ok: true, value: parsed.output };
}

/**
 * Validates the parsed body (`jsonBody`) as `checkBody` does: a 400 naming every bad field, or the
 * schema's output as `c.var.input`, typed for the handlers that follow.
 */
export const validBody = <S extends v.GenericSchema>(schema: S, code: string): MiddlewareHandler<AppEnv & WithInput<v.InferOutput<S>>> =>
  async function validBody(c, next) {
    c.set('input', checkedValue(checkBody(schema, code, c.get('body'))));
    await next();
  };
