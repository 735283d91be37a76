import * as v from 'valibot';
import { label } from './common.ts';

/** One owner rule: a document-id pattern and who fixes what it matches. Both sides trimmed, neither empty. */
const OwnerRuleSchema = v.strictObject({
  pattern: v.pipe(label(200), v.trim(), v.minLength(1, 'must not be empty')),
  owner: v.pipe(label(200), v.trim(), v.minLength(1, 'must not be empty')),
});

/** `PUT /v1/admin/owners`: the rules in order, the first pattern matching a document id naming its owner. Checked by the collector and, before sending, by the console. */
export const OwnerRulesSchema = v.strictObject({
  owners: v.pipe(v.array(OwnerRuleSchema), v.maxLength(500)),
});
