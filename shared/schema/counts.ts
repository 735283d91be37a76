/**
 * The event detail fields that count characters, and the most the collector takes: ten million is
 * a page copied whole many times over. Apart from the event schema so the widget reads it without
 * the validator; a test holds the two together.
 */
export const COUNT_FIELDS: readonly string[] = ['chars'];
export const MAX_COUNT = 10_000_000;
