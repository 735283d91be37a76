import type { Context } from 'hono';
import * as v from 'valibot';
import type { BatchResult, ItemResult } from '../../../shared/schema/batch-result.ts';
import { arrayForObject, firstFieldError } from '../../../shared/validation.ts';
import { errorBody } from '../../errors.ts';

/** Validates items one by one, so one bad item does not sink the others. */
export function validateItems<S extends v.GenericSchema>(schema: S, items: readonly unknown[], fieldOf: (index: number) => string) {
  const valid: { index: number; value: v.InferOutput<S> }[] = [];
  const rejected: ItemResult[] = [];
  items.forEach((item, index) => {
    const parsed = v.safeParse(schema, item);
    const array = parsed.success ? arrayForObject(schema, item, fieldOf(index)) : undefined;
    if (array) {
      rejected.push({ index, status: 'rejected', field: array, reason: 'must be a JSON object, not an array' });
    } else if (parsed.success) {
      valid.push({ index, value: parsed.output });
    } else {
      const { field, message } = firstFieldError(parsed.issues, fieldOf(index));
      rejected.push({ index, status: 'rejected', field, reason: message });
    }
  });
  return { valid, rejected };
}

/**
 * Marks each valid item accepted (new) or duplicate (already stored, or repeated within the
 * batch). If nothing was stored or already there, the whole request is a 400 naming the first
 * bad field, so a client that sent only garbage learns it from the status alone.
 */
export function batchResponse(
  c: Context,
  noun: string,
  valid: readonly { index: number; id: string }[],
  rejected: readonly ItemResult[],
  inserted: ReadonlySet<string>,
) {
  const seen = new Set<string>();
  const results: ItemResult[] = [...rejected];
  for (const { index, id } of valid) {
    const status = inserted.has(id) && !seen.has(id) ? 'accepted' : 'duplicate';
    seen.add(id);
    results.push({ index, id, status });
  }
  results.sort((a, b) => a.index - b.index);
  const count = (s: ItemResult['status']) => results.filter((r) => r.status === s).length;
  const summary: BatchResult = { accepted: count('accepted'), duplicate: count('duplicate'), rejected: count('rejected'), results };
  if (valid.length === 0 && rejected.length > 0) {
    const first = rejected[0] as Extract<ItemResult, { status: 'rejected' }>;
    return c.json({ ...errorBody(`invalid_${noun}`, first.reason, first.field), ...summary }, 400);
  }
  return c.json(summary, 200);
}
