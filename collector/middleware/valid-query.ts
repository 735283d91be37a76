import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import * as v from 'valibot';
import { EPOCH_MS_RANGE, epochMs } from '../../shared/schema/common.ts';
import { decodedOrUndefined } from '../../shared/url.ts';
import { type FieldError, faultsIn, fieldErrors, namesAny } from '../../shared/validation.ts';
import type { AppEnv, WithInput } from '../env.ts';
import { ApiError } from '../errors.ts';

/** The handlers `validQuery` made: a route with one of them states the parameters it takes. */
const queryCheckers = new WeakSet<object>();

type GivenParams = (readonly [name: string, values: string[]])[];

/** Each request's parameters as read: `noUnstatedQuery` reads them first, its route's `validQuery` again. */
const readParams = new WeakMap<Request, GivenParams>();

/**
 * Names given with no `=` at all (`?dryRun`): a flag set, not a field a form left empty. Hono reads
 * both as `''`.
 */
function bareNames(url: string): Set<string> {
  const search = url.includes('?') ? new URL(url).search.slice(1) : '';
  const pairs = search.split('&').filter((pair) => pair !== '' && !pair.includes('='));
  return new Set(pairs.map((name) => decodedOrUndefined(name.replaceAll('+', ' ')) ?? name));
}

/**
 * The query string's parameters that have a value (`?below=&model=`, as a form sends it, is as
 * good as none) or are given bare (`?dryRun`, which is not none: a route taking no `dryRun` would
 * erase or save), parsed once per request.
 */
function givenParams(c: Context): GivenParams {
  let given = readParams.get(c.req.raw);
  if (!given) {
    const bare = bareNames(c.req.url);
    given = Object.entries(c.req.queries())
      .map(([name, values]) => [name, bare.has(name) ? values : values.filter((value) => value !== '')] as const)
      .filter(([, values]) => values.length > 0);
    readParams.set(c.req.raw, given);
  }
  return given;
}

/**
 * Checks the query string against a schema (values arrive as strings: numbers are coerced by the
 * schema): its output, or a 400 naming every bad parameter (the first as `field`).
 */
function checkedQuery<S extends v.GenericSchema>(c: Context, schema: S): v.InferOutput<S> {
  // No prototype: `?__proto__=x` is a parameter like any other (unknown, so refused), not the object's prototype.
  const given: Record<string, string> = Object.create(null);
  const bad: FieldError[] = [];
  for (const [name, set] of givenParams(c)) {
    // Which of two values counts would depend on their order: neither does.
    if (set.length > 1) bad.push({ field: `query.${name}`, message: 'is given more than once' });
    else given[name] = set[0]!;
  }
  const parsed = v.safeParse(schema, given);
  if (!parsed.success) {
    // A parameter given twice is named once, as given twice, whatever its schema says of it missing.
    for (const error of fieldErrors(parsed.issues, 'query', { schema, input: given })) if (!bad.some((b) => b.field === error.field)) bad.push(error);
  }
  if (namesAny(bad)) throw ApiError.fields('invalid_query', bad);
  if (!parsed.success) throw ApiError.fields('invalid_query', faultsIn('query', bad));
  return parsed.output;
}

/** Validates the query string as `checkedQuery` does: the output as `c.var.input`. */
export const validQuery = <S extends v.GenericSchema>(schema: S): MiddlewareHandler<AppEnv & WithInput<v.InferOutput<S>>> => {
  const handler: MiddlewareHandler<AppEnv & WithInput<v.InferOutput<S>>> = async function validQuery(c, next) {
    c.set('input', checkedQuery(c, schema));
    await next();
  };
  queryCheckers.add(handler);
  return handler;
};

/**
 * For a route whose other parts read the query (`requireKey` a write key's `?key=`): those
 * parameters are taken, once each; any other is refused as `validQuery` refuses it.
 */
export const readsQuery = (...names: string[]): MiddlewareHandler<AppEnv> => {
  const schema = v.strictObject(Object.fromEntries(names.map((name) => [name, v.optional(v.string())])));
  const handler: MiddlewareHandler<AppEnv> = async function readsQuery(c, next) {
    checkedQuery(c, schema);
    await next();
  };
  queryCheckers.add(handler);
  return handler;
};

/**
 * For every /v1 route: a route without `validQuery` (or `readsQuery`) takes no parameters, and refuses one given
 * (a 400 naming each) rather than answering as if it had not been: `?limit=5` on a list that takes
 * none, or `?dryRun=true` on an erasure, which would erase. A path no route answers is left to be a 404.
 */
export const noUnstatedQuery = (): MiddlewareHandler<AppEnv> =>
  async function noUnstatedQuery(c, next) {
    const routes = matchedRoutes(c);
    // Middleware is registered for every method (`ALL`); a route names its own.
    const routed = routes.some((r) => r.method !== 'ALL');
    const unstated = givenParams(c).map(([name]) => ({ field: `query.${name}`, message: 'is not a parameter this takes' }));
    if (namesAny(unstated) && routed && !routes.some((r) => queryCheckers.has(r.handler))) throw ApiError.fields('invalid_query', unstated);
    await next();
  };

/** A query parameter holding a whole number within bounds, `fallback` when absent. */
export const intParam = (min: number, max: number, fallback: number) =>
  v.optional(v.pipe(v.string(), v.regex(/^-?\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(min), v.maxValue(max)), String(fallback));

/** A query parameter holding a number within bounds; absent, the route takes a project's setting. */
export const settingParam = (min: number, max: number) =>
  v.optional(v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?$/, 'must be a number'), v.transform(Number), v.minValue(min), v.maxValue(max)));

/** A query parameter holding a moment in epoch milliseconds (2020 to 2100, as every time the API takes). */
export const epochMsParam = () => v.optional(v.pipe(v.string(), v.regex(/^\d+$/, EPOCH_MS_RANGE), v.transform(Number), epochMs()));
