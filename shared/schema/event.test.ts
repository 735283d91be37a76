import type * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FeedbackEventSchema } from './event.ts';
import { TYPED_TEXT_FIELDS } from './typed-text.ts';

type Schema = v.GenericSchema & { wrapped?: Schema; pipe?: { type: string }[]; entries?: Record<string, Schema>; options?: Schema[] };

const unwrapped = (s: Schema): Schema => (s.wrapped ? unwrapped(s.wrapped) : s);
/** `freeText` is the string schema that redacts as it parses: a transform in its pipe. */
const redacts = (s: Schema) => s.type === 'string' && (s.pipe ?? []).some((a) => a.type === 'transform');
const root = (s: Schema): Schema => (s.pipe ? (s.pipe[0] as Schema) : s);

describe('typed text fields', () => {
  it('are exactly the detail fields the event schema parses as typed text', () => {
    const fields = new Set<string>();
    const strings = new Set<string>();
    for (const variant of (FeedbackEventSchema as Schema).options!) {
      const detail = unwrapped(variant.entries!.detail!);
      for (const [key, schema] of Object.entries(detail.entries ?? {})) {
        const field = unwrapped(schema);
        if (root(field).type === 'string') strings.add(key);
        if (redacts(root(field)) || redacts(field)) fields.add(key);
      }
    }
    // The walk sees the string fields at all (ids and labels are strings it must tell apart).
    expect(strings).toContain('chunkId');
    expect([...fields].sort()).toEqual([...TYPED_TEXT_FIELDS].sort());
  });
});
