import type { Context } from 'hono';
import * as v from 'valibot';
import { errorBody } from '../../../shared/error-body.ts';
import type { BatchResult, ItemResult } from '../../../shared/schema/batch-result.ts';
import { arrayForObject, type FieldErrors, faultsIn, fieldErrors } from '../../../shared/validation.ts';

/** Validates items one by one, so one bad item does not sink the others. */
export function validateItems<S extends v.GenericSchema>(schema: S, items: readonly unknown[], fieldOf: (index: number) => string) {
  const valid: { index: number; value: v.InferOutput<S> }[] = [];
  const rejected: ItemResult[] = [];
  items.forEach((item, index) => {
    const parsed = v.safeParse(schema, item);
    const array = parsed.success ? arrayForObject(schema, item, fieldOf(index)) : undefined;
    if (array) rejected.push(rejectedItem(index, [{ field: array, message: 'must be a JSON object, not an array' }]));
    else if (parsed.success) valid.push({ index, value: parsed.output });
    else rejected.push(rejectedItem(index, faultsIn(fieldOf(index), fieldErrors(parsed.issues, fieldOf(index), { schema, input: item }))));
  });
  return { valid, rejected };
}

type Rejected = Extract<ItemResult, { status: 'rejected' }>;

/** A rejected item naming every field at fault (one at least), the first as `field` and `reason`. */
export const rejectedItem = (index: number, fields: FieldErrors): Rejected => ({
  index,
  status: 'rejected',
  field: fields[0].field,
  reason: fields[0].message,
  fields,
});

/**
 * Splits valid events into those taken and those of the sessions `writeRateLimit` set aside
 * (`over`, seconds to wait by session), which are answered `rate_limited` and not stored.
 */
export function holdOverLimit<E extends { index: number; value: { eventId: string; sessionId: string } }>(
  events: readonly E[],
  over: ReadonlyMap<string, number> | undefined,
): { taken: E[]; held: ItemResult[] } {
  const taken: E[] = [];
  const held: ItemResult[] = [];
  for (const e of events) {
    const retryAfter = over?.get(e.value.sessionId);
    if (retryAfter === undefined) taken.push(e);
    else
      held.push({
        index: e.index,
        id: e.value.eventId,
        status: 'rate_limited',
        field: `events[${e.index}].sessionId`,
        reason: `Too many events for this session; retry in ${retryAfter} s`,
        retryAfter,
      });
  }
  return { taken, held };
}

/**
 * Marks each valid item accepted (new) or duplicate (already stored, or repeated within the
 * batch), beside those refused (`rejected`, `rate_limited`). If nothing was stored or already
 * there and every item was rejected, the whole request is a 400 naming the first bad field, its
 * `fields` every bad field of every item, so a client that sent only garbage learns it from the
 * status alone. If some items are `rate_limited`, it is a 429 with Retry-After (the longest any of
 * them waits): a client that does not read the results sends the whole batch again then, as after
 * any 429, and what was stored of it is answered `duplicate`.
 */
export function batchResponse(
  c: Context,
  noun: string,
  valid: readonly { index: number; id: string }[],
  refused: readonly ItemResult[],
  inserted: ReadonlySet<string>,
) {
  const seen = new Set<string>();
  const results: ItemResult[] = [...refused];
  for (const { index, id } of valid) {
    const status = inserted.has(id) && !seen.has(id) ? 'accepted' : 'duplicate';
    seen.add(id);
    results.push({ index, id, status });
  }
  results.sort((a, b) => a.index - b.index);
  const count = (s: ItemResult['status']) => results.filter((r) => r.status === s).length;
  const summary: BatchResult = {
    accepted: count('accepted'),
    duplicate: count('duplicate'),
    rejected: count('rejected'),
    rateLimited: count('rate_limited'),
    results,
  };
  const held = results.filter((r) => r.status === 'rate_limited');
  if (held.length > 0) {
    const retryAfter = Math.max(...held.map((r) => r.retryAfter));
    const message = `${held.length} of ${results.length} ${noun}s are of sessions over their rate limit; send them again in ${retryAfter} s`;
    return c.json({ ...errorBody('rate_limited', message, held[0]!.field), ...summary }, 429, { 'Retry-After': String(retryAfter) });
  }
  if (valid.length === 0 && refused.length > 0) {
    const fields = results.flatMap((r) => (r.status === 'rejected' ? r.fields : []));
    return c.json({ ...errorBody(`invalid_${noun}`, fields[0]!.message, fields[0]!.field, fields), ...summary }, 400);
  }
  return c.json(summary, 200);
}
