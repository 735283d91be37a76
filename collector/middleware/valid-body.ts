import type { MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { firstFieldError } from '../../shared/validation.ts';
import type { AppEnv, WithInput } from '../env.ts';
import { ApiError } from '../errors.ts';

/**
 * Validates the parsed body (`jsonBody`) against a schema: a 400 with `code` naming the first bad
 * field, or the schema's output as `c.var.input`, typed for the handlers that follow.
 */
export const validBody = <S extends v.GenericSchema>(schema: S, code: string): MiddlewareHandler<AppEnv & WithInput<v.InferOutput<S>>> =>
  async function validBody(c, next) {
    const parsed = v.safeParse(schema, c.get('body'));
    if (!parsed.success) throw new ApiError(400, { code, ...firstFieldError(parsed.issues) });
    c.set('input', parsed.output);
    await next();
  };
