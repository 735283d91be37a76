import type * as v from 'valibot';
import * as valibot from 'valibot';
import { describe, expect, it } from 'vitest';
import { COUNT_FIELDS, MAX_COUNT } from './counts.ts';
import { DURATION_FIELDS, MAX_DURATION_MS } from './durations.ts';
import { FeedbackEventSchema } from './event.ts';
import { TYPED_TEXT } from './typed-text.ts';

type Schema = v.GenericSchema & { wrapped?: Schema; pipe?: { type: string }[]; entries?: Record<string, Schema>; options?: Schema[] };

const unwrapped = (s: Schema): Schema => (s.wrapped ? unwrapped(s.wrapped) : s);
/** `freeText` is the string schema that redacts as it parses: a transform in its pipe. */
const redacts = (s: Schema) => s.type === 'string' && (s.pipe ?? []).some((a) => a.type === 'transform');
const root = (s: Schema): Schema => (s.pipe ? (s.pipe[0] as Schema) : s);

/** The requirement of the first action of a kind in a schema's pipe (or its root string's). */
const requirement = (s: Schema, type: string) =>
  [...(s.pipe ?? []), ...(root(s).pipe ?? [])].find((a) => a.type === type) as { requirement?: number } | undefined;

/** Each signal's detail fields, unwrapped. */
const detailFields = () =>
  (FeedbackEventSchema as Schema).options!.map((variant) => {
    const signal = (variant.entries!.signalType as unknown as { literal: string }).literal;
    return [signal, Object.entries(unwrapped(variant.entries!.detail!).entries ?? {}).map(([key, schema]) => [key, unwrapped(schema)] as const)] as const;
  });

describe('typed text fields', () => {
  it('are exactly the detail fields the event schema parses as typed text, each with its limit', () => {
    const typed: Record<string, Record<string, number>> = {};
    const strings = new Set<string>();
    for (const [signal, fields] of detailFields()) {
      for (const [key, field] of fields) {
        if (root(field).type === 'string') strings.add(key);
        if (redacts(root(field)) || redacts(field)) (typed[signal] ??= {})[key] = requirement(field, 'max_length')!.requirement!;
      }
    }
    // The walk sees the string fields at all (ids and labels are strings it must tell apart).
    expect(strings).toContain('chunkId');
    expect(typed).toEqual(TYPED_TEXT);
  });
});

/** The detail fields whose largest value taken is `max`. */
const fieldsUpTo = (max: number) => {
  const found = new Set<string>();
  for (const [, fields] of detailFields()) for (const [key, field] of fields) if (requirement(field, 'max_value')?.requirement === max) found.add(key);
  return [...found].sort();
};

describe('bounded number fields', () => {
  it('are exactly the lists the widget reads: durations up to the longest taken, counts up to the most', () => {
    expect(fieldsUpTo(MAX_DURATION_MS)).toEqual([...DURATION_FIELDS].sort());
    expect(fieldsUpTo(MAX_COUNT)).toEqual([...COUNT_FIELDS].sort());
  });
});

describe('bounds', () => {
  const copy = (over: Record<string, unknown>) => ({
    eventId: 'e1',
    traceId: 't1',
    sessionId: 's1',
    clientTs: Date.UTC(2026, 11, 1),
    signalType: 'copy_answer',
    detail: { chars: 12 },
    ...over,
  });
  const refused = (event: unknown) => {
    const issues = valibot.safeParse(FeedbackEventSchema, event).issues;
    return issues ? valibot.getDotPath(issues[0]) : 'valid';
  };

  it('refuses a time since the answer was shown past a day, and a copy past the most counted, naming the field', () => {
    expect(refused(copy({ shownMs: MAX_DURATION_MS }))).toBe('valid');
    expect(refused(copy({ shownMs: MAX_DURATION_MS + 1 }))).toBe('shownMs');
    expect(refused(copy({ detail: { chars: MAX_COUNT } }))).toBe('valid');
    expect(refused(copy({ detail: { chars: MAX_COUNT + 1 } }))).toBe('detail.chars');
  });

  it('holds typed text to its limit once redacted, still taking what it took as typed: a placeholder across the limit goes whole', () => {
    const max = TYPED_TEXT.correction.text;
    const text = (typed: string) => {
      const parsed = valibot.safeParse(FeedbackEventSchema, copy({ signalType: 'correction', detail: { text: typed } }));
      return parsed.success ? (parsed.output.detail as { text: string }).text : 'refused';
    };
    const filler = 'x'.repeat(max - 7);
    // "[EMAIL]" is one longer than "a@b.co": redacted, each text would be max + 1 (a correction is trimmed).
    expect(text(`${filler} a@b.co`)).toBe(filler);
    expect(text(`a@b.co ${filler}`)).toBe(`[EMAIL] ${filler.slice(1)}`);
    expect(text(`${filler.slice(1)} a@b.co `)).toBe(`${filler.slice(1)} [EMAIL]`);
    expect(text(`${filler} a@b.co!`)).toBe('refused');
  });
});
