/**
 * Control characters (C0, DEL and C1) but tab and line breaks: nothing a person types or a model
 * writes means them, and a NUL cuts SQLite's string functions short. Vertical tab, form feed (text
 * from PDFs), the separators and next line (U+0085) part words, so they become spaces; the rest go.
 * Taken out before redaction, in the browser and in the collector: one between the digits of a
 * phone number would hide it from the patterns.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const SPACING_CONTROLS = /[\u000B\u000C\u001C-\u001F\u0085]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000E-\u001B\u007F-\u0084\u0086-\u009F]/g;

export const withoutControlCharacters = (text: string): string => text.replace(SPACING_CONTROLS, ' ').replace(CONTROL_CHARACTERS, '');

/** Whether text holds a control character other than tab and line breaks: one the above would change. */
export const hasControlCharacters = (text: string): boolean => withoutControlCharacters(text) !== text;
