import type { FieldError } from './validation.ts';

/** The one error shape of the collector's API, and the demo's: `{ "error": { "code", "message", "field", "fields" } }`. */
export interface ErrorBody {
  error: { code: string; message: string; field?: string; fields?: readonly FieldError[] };
}

export const errorBody = (code: string, message: string, field?: string, fields?: readonly FieldError[]): ErrorBody => ({
  error: { code, message, ...(field !== undefined && { field }), ...(fields !== undefined && { fields }) },
});
