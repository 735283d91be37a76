import { type Evidence, evidenceText } from '../../../shared/admin-api/evidence.ts';
import type { Strings } from '../../i18n/strings.ts';

/** A review item's (or trace's) evidence in the reader's language, from its codes and numbers, not the API's English lines. */
export const evidenceWords = (codes: readonly Evidence[], s: Strings): string[] => codes.map((e) => evidenceText(e, s[`evidence_${e.code}`]));
