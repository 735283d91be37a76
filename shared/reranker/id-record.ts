import * as v from 'valibot';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * An object keyed by ids from a team's own systems (chunk and document ids), each value checked by
 * `value`. Every key is kept: valibot's `v.record` skips `constructor`, `prototype` and
 * `__proto__`, which are ids like any other (a wiki's page on JavaScript's `constructor`), so a
 * model's evidence for them would be dropped unsaid. The output holds each key as an own property,
 * `__proto__` included (assigning it would set the prototype instead): read it with `Object.entries`,
 * a Map or `Object.hasOwn`, never by `in` or plain indexing. An array is refused, not read as its indices.
 */
export const idRecord = <V extends v.GenericSchema>(value: V) =>
  v.pipe(
    v.custom<Record<string, unknown>>(isObject, 'must be an object'),
    v.rawTransform<Record<string, unknown>, Record<string, v.InferOutput<V>>>(({ dataset, config, addIssue, NEVER }) => {
      const input = dataset.value;
      const entries: [string, v.InferOutput<V>][] = [];
      let failed = false;
      for (const [key, entry] of Object.entries(input)) {
        const parsed = v.safeParse(value, entry, config as v.Config<v.InferIssue<V>>);
        if (parsed.success) {
          entries.push([key, parsed.output]);
          continue;
        }
        failed = true;
        const at: v.ObjectPathItem = { type: 'object', origin: 'value', input, key, value: entry };
        for (const issue of parsed.issues) {
          addIssue({
            message: issue.message,
            input: issue.input,
            expected: issue.expected ?? undefined,
            received: issue.received,
            path: [at, ...(issue.path ?? [])],
          });
        }
        if (config.abortEarly) break;
      }
      // fromEntries defines own properties, so a `__proto__` key stays a key.
      return failed ? NEVER : Object.fromEntries(entries);
    }),
  );
