import * as v from 'valibot';

/** A validation failure named by its field path, e.g. `events[3].detail.stars`. */
export interface FieldError {
  field: string;
  message: string;
}

/** The fields at fault in a 400: one at least, or it would name none. */
export type FieldErrors = readonly [FieldError, ...FieldError[]];

/** Whether `fields` names one at least, as a 400 must. */
export const namesAny = (fields: readonly FieldError[]): fields is FieldErrors => fields.length > 0;

/** `fields`, or `part` alone when a check failed without naming any (valibot names one for every issue). */
export const faultsIn = (part: string, fields: readonly FieldError[]): FieldErrors => (namesAny(fields) ? fields : [{ field: part, message: 'is not valid' }]);

/** Turns valibot's first issue into a field path and a message a developer can act on. */
export const firstFieldError = (issues: readonly v.BaseIssue<unknown>[], prefix = ''): FieldError => fieldError(issues[0]!, prefix);

/**
 * Every field valibot's issues name, once each with its first issue's message, in the order found;
 * with the `schema` and `input` checked, every key a strict object does not take too (valibot names
 * only its first).
 */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[], prefix = '', checked?: { schema: v.GenericSchema; input: unknown }): FieldError[] {
  const byField = new Map<string, string>();
  const unknown = checked ? unknownKeys(checked.schema, checked.input, prefix) : [];
  // A union's own issue says "Expected Object but received Object" of an input that is one of its
  // options but for keys it does not take: those keys, named below it, say what is wrong.
  const explained = ancestorsOf(unknown.map((u) => u.field));
  const found = issues
    .map((issue) => ({ issue, ...fieldError(issue, prefix) }))
    .filter(({ issue, field }) => !((issue.type === 'union' || issue.type === 'variant') && explained.has(field)));
  for (const { field, message } of [...found, ...unknown]) if (!byField.has(field)) byField.set(field, message);
  return Array.from(byField, ([field, message]) => ({ field, message }));
}

/** Every path above one of `fields` (`a` and `a.b` above `a.b[0]`, `body` above all), in a set: a batch may name thousands. */
function ancestorsOf(fields: readonly string[]): Set<string> {
  const above = new Set<string>(fields.length > 0 ? ['body'] : []);
  for (const field of fields) for (const { index } of field.matchAll(/[.[]/g)) if (index > 0) above.add(field.slice(0, index));
  return above;
}

function fieldError(issue: v.BaseIssue<unknown>, prefix: string): FieldError {
  let field = prefix;
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    field = pathTo(field, typeof key === 'number' ? key : String(key));
  }
  return { field: field || prefix || 'body', message: messageOf(issue) };
}

const NOT_TAKEN = 'is not a field this takes';
/** valibot's issue for a key a strict object does not take. */
const isNotTaken = (issue: v.BaseIssue<unknown>) => issue.kind === 'schema' && issue.type.endsWith('object') && issue.expected === 'never';

/** valibot's words for an object's keys ("Invalid key: Expected never but received…") said plainly: the path names the key. */
function messageOf(issue: v.BaseIssue<unknown>): string {
  if (isNotTaken(issue)) return NOT_TAKEN;
  if (issue.kind === 'schema' && issue.type.endsWith('object') && issue.received === 'undefined') return 'is required';
  return issue.message;
}

/** A schema's parts the walk below reads: valibot keeps them on the schema object, piped or not. */
interface SchemaParts {
  type: string;
  entries?: Record<string, v.GenericSchema>;
  value?: v.GenericSchema;
  item?: v.GenericSchema;
  wrapped?: v.GenericSchema;
  options?: v.GenericSchema[];
  key?: string;
  pipe?: { kind: string }[];
}

const OBJECTS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest', 'record']);
const WRAPPERS = new Set(['optional', 'exact_optional', 'nullable', 'nullish', 'undefinedable']);

/** Where `path` leads to `key`, named as `fieldError` names a path. */
const pathTo = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** What a walk finds at one object or record schema, given the input there and its path. */
type Visit<T> = (s: SchemaParts, input: unknown, path: string) => Iterable<T>;

/**
 * Walks `schema` beside `input` as far as the input goes (objects, records, arrays, wrappers, the
 * option of a union or variant the input is, the schemas later in a pipe), yielding what `visit`
 * finds at each object or record, outer before inner.
 */
function* walk<T>(schema: v.GenericSchema, input: unknown, path: string, visit: Visit<T>): Generator<T, undefined> {
  if (input === undefined || input === null) return;
  const s = schema as unknown as SchemaParts;
  if (OBJECTS.has(s.type)) {
    yield* visit(s, input, path);
    if (typeof input !== 'object' || Array.isArray(input)) return;
    const record = input as Record<string, unknown>;
    const parts = s.type === 'record' ? Object.keys(record).map((key) => [key, s.value!] as const) : Object.entries(s.entries ?? {});
    for (const [key, part] of parts) yield* walk(part, record[key], pathTo(path, key), visit);
  } else if (s.type === 'array') {
    if (Array.isArray(input)) for (const [i, item] of input.entries()) yield* walk(s.item!, item, pathTo(path, i), visit);
  } else if (WRAPPERS.has(s.type)) {
    yield* walk(s.wrapped!, input, path, visit);
  } else if (s.type === 'union' || s.type === 'variant') {
    const option = optionOf(s, input);
    if (option) yield* walk(option, input, path, visit);
  } else {
    // The schemas later in a pipe (a record after a custom check) read the same input.
    for (const step of s.pipe?.slice(1) ?? []) if (step.kind === 'schema') yield* walk(step as v.GenericSchema, input, path, visit);
  }
}

/**
 * The option of a union or variant `input` is: the first that takes it; else the one it would be but
 * for keys it does not take (those `unknownKeys` looks for), which a variant's discriminator names
 * whatever else is wrong.
 */
function optionOf(s: SchemaParts, input: unknown): v.GenericSchema | undefined {
  const options = s.options!;
  const taken = options.find((o) => v.is(o, input));
  if (taken || typeof input !== 'object') return taken;
  const record = input as Record<string, unknown>;
  return options.find((o) => {
    const discriminator = s.type === 'variant' && (o as unknown as SchemaParts).entries?.[s.key!];
    return discriminator ? v.is(discriminator, record[s.key!]) : (v.safeParse(o, input).issues ?? []).every(isNotTaken);
  });
}

/** Every key of `input` that a strict object of `schema` does not take. */
const unknownKeys = (schema: v.GenericSchema, input: unknown, path: string): FieldError[] => [
  ...walk(schema, input, path, (s, at, atPath) =>
    s.type === 'strict_object' && typeof at === 'object' && !Array.isArray(at)
      ? Object.keys(at as object)
          .filter((key) => !Object.hasOwn(s.entries!, key))
          .map((key) => ({ field: pathTo(atPath, key), message: NOT_TAKEN }))
      : [],
  ),
];

/**
 * The field where an array stands for an object, if any: valibot's object and record schemas take
 * `[]` as `{}` (so `"thresholds": []` would reset every threshold) and `["a"]` as `{ "0": "a" }`.
 * Walks the schema beside the input it accepted; `path` names the input, as `firstFieldError` does.
 */
export const arrayForObject = (schema: v.GenericSchema, input: unknown, path = ''): string | undefined =>
  walk(schema, input, path, (_, at, atPath) => (Array.isArray(at) ? [atPath || 'body'] : [])).next().value;
