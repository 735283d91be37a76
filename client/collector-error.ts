import type { FieldError } from '../shared/validation.ts';
/** The collector's one error shape (collector/errors.ts): `{ "error": { "code", "message", "field"?, "fields"? } }`. */
export interface CollectorError {
  code: string;
  message: string;
  field?: string;
  /** Every field at fault when a body or query string was checked, the first of them `field`. */
  fields?: FieldError[];
}

/**
 * The error in a JSON answer when it is the collector's own: a gateway's or a proxy's JSON
 * (`{ "error": "Forbidden" }`) is not the collector refusing the request, so it must not be taken as one.
 */
export function collectorError(body: unknown): CollectorError | undefined {
  const error = (body as { error?: unknown } | null | undefined)?.error as Partial<CollectorError> | null | undefined;
  return typeof error?.code === 'string' && typeof error.message === 'string' ? (error as CollectorError) : undefined;
}
