import { EVIDENCE_EN, type Evidence, evidenceText } from '../../shared/admin-api/evidence.ts';

/** What a review row's evidence column holds: codes, or the English lines mining wrote before it stored codes. */
export type StoredEvidence = Evidence | string;

/** The English lines mining wrote before it stored codes, and the code each reads back as. */
const LINES: readonly [RegExp, (m: RegExpMatchArray) => Evidence][] = [
  [/^flagged as the wrong source \(confidence (-?[\d.]+)\)$/, (m) => ({ code: 'flagged_wrong_source', confidence: Number(m[1]) })],
  [/^holds (\d+)% of the terms of the user's correction$/, (m) => ({ code: 'holds_correction_terms', share: Number(m[1]) / 100 })],
  [/^ranked (\d+) on an answer scored (-?[\d.]+)$/, (m) => ({ code: 'ranked_on_bad_answer', rank: Number(m[1]), score: Number(m[2]) })],
  [/^the user's correction names (.+) as the source$/, (m) => ({ code: 'correction_names_source', document: m[1]! })],
  [/^clicked on an answer scored (-?[\d.]+)$/, (m) => ({ code: 'clicked', score: Number(m[1]) })],
  [/^read with focus on an answer scored (-?[\d.]+)$/, (m) => ({ code: 'read_with_focus', score: Number(m[1]) })],
  [/^copied on an answer scored (-?[\d.]+)$/, (m) => ({ code: 'copied', score: Number(m[1]) })],
];

/** A stored piece of evidence as a code: an English line kept from before reads back as the code it was written from. */
export function asEvidence(stored: StoredEvidence): Evidence {
  // A code none of the codes' own (a row written by something else) is shown as it was stored, not thrown on.
  if (typeof stored !== 'string') return Object.hasOwn(EVIDENCE_EN, stored.code) ? stored : { code: 'text', text: JSON.stringify(stored) };
  for (const [line, code] of LINES) {
    const m = stored.match(line);
    if (m) return code(m);
  }
  return { code: 'text', text: stored };
}

/**
 * Pieces of evidence each once, in order: what reads the same (several traces' "ranked 1 on an
 * answer scored -0.62", or one kept as a line and one as a code) is said once, as it always was.
 */
export function distinctEvidence(stored: readonly StoredEvidence[]): Evidence[] {
  const said = new Map<string, Evidence>();
  for (const e of stored.map(asEvidence)) {
    const text = evidenceText(e);
    if (!said.has(text)) said.set(text, e);
  }
  return [...said.values()];
}

/** A stored evidence column as the API answers it: the English lines it has always given, and the codes they are worded from. */
export function evidenceFields(column: string): { evidence: string[]; evidenceCodes: Evidence[] } {
  const evidenceCodes = (JSON.parse(column) as StoredEvidence[]).map(asEvidence);
  return { evidence: evidenceCodes.map((e) => evidenceText(e)), evidenceCodes };
}
