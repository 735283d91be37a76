import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { arrayForObject, fieldErrors, firstFieldError } from './validation.ts';

const error = (schema: v.GenericSchema, input: unknown, prefix?: string) => firstFieldError(v.safeParse(schema, input).issues!, prefix);

describe('firstFieldError', () => {
  const config = v.strictObject({ retentionDays: v.optional(v.number()) });
  const batch = v.object({ events: v.array(v.object({ traceId: v.string(), stars: v.optional(v.number()) })) });

  it('names a field the schema does not take, and says so plainly', () => {
    expect(error(config, { bogus: 1 })).toEqual({ field: 'bogus', message: 'is not a field this takes' });
  });

  it('names a missing field by its path, and says it is required', () => {
    expect(error(batch, { events: [{}] })).toEqual({ field: 'events[0].traceId', message: 'is required' });
    expect(error(batch, {}, 'body')).toEqual({ field: 'body.events', message: 'is required' });
  });

  it("keeps valibot's message for a value of the wrong type", () => {
    expect(error(batch, { events: [{ traceId: 't', stars: 'five' }] })).toEqual({
      field: 'events[0].stars',
      message: 'Invalid type: Expected number but received "five"',
    });
    expect(error(config, 'text').message).toBe('Invalid type: Expected Object but received "text"');
  });
});

describe('fieldErrors', () => {
  const settings = v.strictObject({
    retentionDays: v.optional(v.number()),
    prompts: v.optional(v.array(v.strictObject({ text: v.string() }))),
    labels: v.optional(v.object({ en: v.optional(v.string()) })),
  });
  const all = (input: unknown, prefix = '') => fieldErrors(v.safeParse(settings, input).issues!, prefix, { schema: settings, input }).map((f) => f.field);

  it('names every key a strict object does not take, at any depth, where valibot names the first', () => {
    const input = {
      colour: 1,
      retentionDays: 'x',
      size: 2,
      prompts: [
        { text: 't', tone: 'warm' },
        { text: 't', size: 3 },
      ],
      labels: { fr: 'x' },
    };
    expect(fieldErrors(v.safeParse(settings, input).issues!).length).toBeLessThan(5);
    expect(all(input)).toEqual(['retentionDays', 'prompts[0].tone', 'prompts[1].size', 'colour', 'size']);
  });

  it('names each field once, with its first message, under the prefix given', () => {
    expect(fieldErrors(v.safeParse(settings, { colour: 1 }).issues!, 'query', { schema: settings, input: { colour: 1 } })).toEqual([
      { field: 'query.colour', message: 'is not a field this takes' },
    ]);
  });

  const named = (schema: v.GenericSchema, input: unknown) => fieldErrors(v.safeParse(schema, input).issues!, '', { schema, input }).map((f) => f.field);

  it("names a key a union option's strict object does not take, in the option the input would be", () => {
    const judgement = v.union([v.strictObject({ chunkId: v.string(), relevance: v.number() }), v.strictObject({ docId: v.string(), relevance: v.number() })]);
    const body = v.strictObject({ judgements: v.array(judgement) });
    // Not also the union's own "Expected Object but received Object" at judgements[0]: the keys say why.
    expect(named(body, { judgements: [{ docId: 'd', relevance: 1, colour: 'red', size: 2 }] })).toEqual(['judgements[0].colour', 'judgements[0].size']);
    // An input that is none of the options is named by the union's own issue.
    expect(named(body, { judgements: [{ relevance: 1 }] })).toEqual(['judgements[0]']);
    // A union that is the whole body too.
    expect(named(judgement, { docId: 'd', relevance: 1, colour: 'red' })).toEqual(['colour']);
  });

  it("names every key a variant option does not take, beside the option's other faults", () => {
    const event = v.variant('kind', [
      v.strictObject({ kind: v.literal('vote'), stars: v.number() }),
      v.strictObject({ kind: v.literal('note'), text: v.string() }),
    ]);
    expect(named(event, { kind: 'vote', stars: 'five', colour: 'red', size: 2 })).toEqual(['stars', 'colour', 'size']);
  });
});

describe('arrayForObject', () => {
  it('finds an array standing for an object in the option of a variant the input is', () => {
    const event = v.variant('kind', [
      v.strictObject({ kind: v.literal('vote'), detail: v.optional(v.object({ stars: v.optional(v.number()) })) }),
      v.strictObject({ kind: v.literal('note'), detail: v.optional(v.record(v.string(), v.string())) }),
    ]);
    expect(arrayForObject(event, { kind: 'note', detail: [] }, 'events[2]')).toBe('events[2].detail');
    expect(arrayForObject(event, { kind: 'note', detail: {} })).toBeUndefined();
  });
});
