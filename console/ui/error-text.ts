import { ApiRequestError } from '../api/client.ts';
import { format, type Strings } from '../i18n/strings.ts';

/** What went wrong with a request, for the reader. */
export const errorText = (err: unknown, s: Strings): string =>
  err instanceof ApiRequestError ? format(s.requestFailed, { status: err.status, message: err.message }) : s.networkFailed;
