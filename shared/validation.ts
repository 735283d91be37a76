import * as v from 'valibot';

/** A validation failure named by its field path, e.g. `events[3].detail.stars`. */
export interface FieldError {
  field: string;
  message: string;
}

/** Turns valibot's first issue into a field path and a message a developer can act on. */
export const firstFieldError = (issues: readonly v.BaseIssue<unknown>[], prefix = ''): FieldError => fieldError(issues[0]!, prefix);

/**
 * Every field valibot's issues name, once each with its first issue's message, in the order found;
 * with the `schema` and `input` checked, every key a strict object does not take too (valibot names
 * only its first).
 */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[], prefix = '', checked?: { schema: v.GenericSchema; input: unknown }): FieldError[] {
  const byField = new Map<string, string>();
  const found = issues.map((issue) => fieldError(issue, prefix));
  if (checked) found.push(...unknownKeys(checked.schema, checked.input, prefix));
  for (const { field, message } of found) if (!byField.has(field)) byField.set(field, message);
  return Array.from(byField, ([field, message]) => ({ field, message }));
}

function fieldError(issue: v.BaseIssue<unknown>, prefix: string): FieldError {
  let field = prefix;
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    field += typeof key === 'number' ? `[${key}]` : field ? `.${String(key)}` : String(key);
  }
  return { field: field || prefix || 'body', message: messageOf(issue) };
}

const NOT_TAKEN = 'is not a field this takes';

/** valibot's words for an object's keys ("Invalid key: Expected never but received…") said plainly: the path names the key. */
function messageOf(issue: v.BaseIssue<unknown>): string {
  if (issue.kind !== 'schema' || !issue.type.endsWith('object')) return issue.message;
  if (issue.expected === 'never') return NOT_TAKEN;
  if (issue.received === 'undefined') return 'is required';
  return issue.message;
}

/** A schema's parts this check walks: valibot keeps them on the schema object, piped or not. */
interface SchemaParts {
  type: string;
  entries?: Record<string, v.GenericSchema>;
  value?: v.GenericSchema;
  item?: v.GenericSchema;
  wrapped?: v.GenericSchema;
  options?: v.GenericSchema[];
  pipe?: { kind: string }[];
}

const OBJECTS = new Set(['object', 'strict_object', 'loose_object', 'object_with_rest', 'record']);
const WRAPPERS = new Set(['optional', 'exact_optional', 'nullable', 'nullish', 'undefinedable']);

/** Where `path` leads to `key`, named as `fieldError` names a path. */
const pathTo = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** Every key of `input` that a strict object of `schema` does not take, walked as `arrayForObject` walks. */
function unknownKeys(schema: v.GenericSchema, input: unknown, path: string): FieldError[] {
  if (input === undefined || input === null || typeof input !== 'object') return [];
  const s = schema as unknown as SchemaParts;
  if (OBJECTS.has(s.type) && s.type !== 'record' && !Array.isArray(input)) {
    const entries = s.entries ?? {};
    const record = input as Record<string, unknown>;
    return Object.keys(record).flatMap((key) =>
      Object.hasOwn(entries, key)
        ? unknownKeys(entries[key]!, record[key], pathTo(path, key))
        : s.type === 'strict_object'
          ? [{ field: pathTo(path, key), message: NOT_TAKEN }]
          : [],
    );
  }
  if (s.type === 'array' && Array.isArray(input)) return input.flatMap((item, i) => unknownKeys(s.item!, item, pathTo(path, i)));
  if (WRAPPERS.has(s.type)) return unknownKeys(s.wrapped!, input, path);
  return (s.pipe?.slice(1) ?? []).flatMap((step) => (step.kind === 'schema' ? unknownKeys(step as v.GenericSchema, input, path) : []));
}

/**
 * The field where an array stands for an object, if any: valibot's object and record schemas take
 * `[]` as `{}` (so `"thresholds": []` would reset every threshold) and `["a"]` as `{ "0": "a" }`.
 * Walks the schema beside the input it accepted; `path` names the input, as `firstFieldError` does.
 */
export function arrayForObject(schema: v.GenericSchema, input: unknown, path = ''): string | undefined {
  if (input === undefined || input === null) return undefined;
  const s = schema as unknown as SchemaParts;
  if (OBJECTS.has(s.type)) {
    if (Array.isArray(input)) return path || 'body';
    if (typeof input !== 'object') return undefined;
    const fields = s.type === 'record' ? Object.keys(input).map((key) => [key, s.value!] as const) : Object.entries(s.entries ?? {});
    for (const [key, part] of fields) {
      const found = arrayForObject(part, (input as Record<string, unknown>)[key], pathTo(path, key));
      if (found) return found;
    }
    return undefined;
  }
  if (s.type === 'array' && Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      const found = arrayForObject(s.item!, input[i], pathTo(path, i));
      if (found) return found;
    }
    return undefined;
  }
  if (WRAPPERS.has(s.type)) return arrayForObject(s.wrapped!, input, path);
  if (s.type === 'union' || s.type === 'variant') {
    // The option the input is.
    const option = s.options!.find((o) => v.is(o, input));
    return option ? arrayForObject(option, input, path) : undefined;
  }
  // The schemas later in a pipe (a record after a custom check) read the same input.
  for (const step of s.pipe?.slice(1) ?? []) {
    const found = step.kind === 'schema' ? arrayForObject(step as v.GenericSchema, input, path) : undefined;
    if (found) return found;
  }
  return undefined;
}
