/**
 * The event detail fields that hold what a person typed, and only those: the widget redacts them
 * before an event is buffered (the collector again as it parses them, with `freeText`). Apart from
 * the event schema so the widget reads it without the validator; a test holds the two together.
 */
export const TYPED_TEXT_FIELDS: readonly string[] = ['text', 'source'];
