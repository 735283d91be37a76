import type { FieldError } from './validation.ts';

/**
 * The `fields` of an API answer, as far as they are well formed: a client may be answered by an
 * older collector, which lists none, or by something else at its address.
 */
export const listedFields = (fields: unknown): FieldError[] =>
  Array.isArray(fields) ? fields.filter((f): f is FieldError => typeof f?.field === 'string' && typeof f.message === 'string') : [];
