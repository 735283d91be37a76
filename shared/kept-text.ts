import { withoutControlCharacters } from './control-characters.ts';
import { cutRedacted } from './cut.ts';

/**
 * What is kept of a typed text, in the widget and the collector alike: control characters out
 * first (one between a phone number's digits would hide it from the patterns), redacted by
 * `redact` (the widget's patterns, or the collector's with addresses), then cut to `max` at whole
 * placeholders.
 */
export const keptText = (text: string, max: number, redact: (text: string) => string): string => cutRedacted(redact(withoutControlCharacters(text)), max);
