/**
 * Stale documents (seed 000, "flag_stale_documents"): a document, or one version of it, whose
 * answers go wrong significantly more often than the project's, or whose questions get re-asked
 * more and more, is flagged for its owner with the traces as evidence. A stated test with a
 * minimum count, not a raw ratio: three bad answers out of four prove nothing.
 */
import { byCodeUnit } from '../../shared/code-unit-order.ts';
import { DAY_MS, utcDay } from '../../shared/time.ts';
import { rateAboveBaseline, rateRising } from './significance.ts';

/** Scored answers a document needs before its negative rate is tested. */
export const MIN_DOC_TRACES = 10;
/** Answers in each window before a rising re-query rate is tested. */
export const MIN_REQUERY_TRACES = 20;
/** One-sided significance level of both tests. */
export const DOC_ALPHA = 0.01;
/** The re-query trend compares the last RECENT_DAYS with the BASELINE_DAYS before them. */
export const RECENT_DAYS = 7;
export const BASELINE_DAYS = 28;
/** Answers a flag shows as evidence: the worst citing the document, kept per document version and day. */
export const EVIDENCE_TRACES = 10;

/**
 * The days a run at `now` judges documents over are those after this one (UTC, YYYY-MM-DD): the
 * RECENT_DAYS + BASELINE_DAYS whole days before the run's own, and what its own has so far (at the
 * nightly hour, nothing yet).
 */
export const documentWindowAfter = (now: number) => utcDay(now - (RECENT_DAYS + BASELINE_DAYS + 1) * DAY_MS);
/** The first day of that window, whose answers the days keep lists of. */
export const firstListedDay = (now: number) => utcDay(now - (RECENT_DAYS + BASELINE_DAYS) * DAY_MS);
/** The recent part of that window: the days after this one (RECENT_DAYS whole days, and the run's own). */
export const recentWindowAfter = (now: number) => utcDay(now - (RECENT_DAYS + 1) * DAY_MS);

/** An answer held against a document: its confidence-weighted score and its trace id. */
export type EvidenceEntry = readonly [score: number, traceId: string];

/**
 * A flag's evidence from its days' lists (each the day's worst answers of one version, and a
 * document as a whole has all its versions'): the EVIDENCE_TRACES worst answers, each once, worst
 * first. Exact, because an answer among them is among the worst of its own day and version.
 */
export function worstAnswers(lists: readonly (readonly EvidenceEntry[])[]): string[] {
  const entries = lists.flat().sort((a, b) => a[0] - b[0] || byCodeUnit(a[1], b[1]));
  return [...new Set(entries.map((e) => e[1]))].slice(0, EVIDENCE_TRACES);
}

/** The flags' version of a document as a whole (all its versions), beside those of its versions. */
export const WHOLE_DOCUMENT = '*';

export interface DocumentCounts {
  docId: string;
  /** WHOLE_DOCUMENT for the document as a whole. */
  docVersion: string;
  /** Answers citing it that have trusted signals. */
  scored: number;
  /** Of those, answers scored bad. */
  negative: number;
  /** Answers citing it in the recent window, and how many of them were re-asked. */
  recent: number;
  recentRequeried: number;
  /** The same in the window before. */
  before: number;
  beforeRequeried: number;
}

/**
 * A document's answers over the window that cited exactly these versions of it, with the last day
 * one did. Each answer is in one such row per document, that of all the versions it cited (two
 * during a re-index, say), so it counts once for the document and once for each of those versions.
 */
export interface CitedCounts extends Omit<DocumentCounts, 'docVersion'> {
  versions: readonly string[];
  lastDay: string;
}

/** Counts to judge, with the rows whose days' worst answers are the evidence of a flag on them. */
export interface JudgedCounts<R extends CitedCounts = CitedCounts> extends DocumentCounts {
  evidence: R[];
}

type Count = Exclude<keyof DocumentCounts, 'docId' | 'docVersion'>;
const COUNTS: readonly Count[] = ['scored', 'negative', 'recent', 'recentRequeried', 'before', 'beforeRequeried'];

/** The counts of the answers of `rows` (each answer in one row), under `docVersion`. */
function summed<R extends CitedCounts>(docId: string, docVersion: string, rows: readonly R[]): JudgedCounts<R> {
  const counts = Object.fromEntries(COUNTS.map((c) => [c, rows.reduce((n, r) => n + r[c], 0)])) as Record<Count, number>;
  return { docId, docVersion, ...counts, evidence: [...rows] };
}

/**
 * What a document is judged on, from its rows (CitedCounts): as users are shown it now. The
 * versions cited on the last day it was cited are its current ones; one not cited since another was
 * (replaced by a new one, or a new one taken back) is what its owner has changed already, and is
 * neither flagged nor held against the document. Each current version is judged when there are
 * several, on the answers citing it, and the document as a whole: its bad answers those citing any
 * current version, its re-asks those of all its answers (a rise since a new version came out is what
 * that test is for), each answer once however many versions it cited. A document with one current
 * version is judged once, as a whole.
 */
export function countsToJudge<R extends CitedCounts>(rows: readonly R[]): JudgedCounts<R>[] {
  const docId = rows[0]!.docId;
  const byVersion = new Map<string, R[]>();
  for (const r of rows) {
    for (const v of r.versions) {
      const of = byVersion.get(v);
      if (of) of.push(r);
      else byVersion.set(v, [r]);
    }
  }
  // ISO days sort as strings.
  const lastOf = (of: readonly R[]) =>
    of
      .map((r) => r.lastDay)
      .sort()
      .at(-1);
  const last = lastOf(rows);
  const current = [...byVersion].filter(([, of]) => lastOf(of) === last).sort(([a], [b]) => byCodeUnit(a, b));
  const citingCurrent = rows.filter((r) => r.versions.some((v) => current.some(([c]) => c === v)));
  // Bad answers: those citing a current version. Re-asks: all of them.
  const { scored, negative, evidence } = summed(docId, WHOLE_DOCUMENT, citingCurrent);
  const asWhole = { ...summed(docId, WHOLE_DOCUMENT, rows), scored, negative, evidence };
  if (current.length === 1) return [asWhole];
  return [asWhole, ...current.map(([version, of]) => summed(docId, version, of))];
}

/** The tests a document can fail: its answers go bad more than the project's, its questions get re-asked more lately. */
export type DocumentTest = 'badAnswers' | 'reasked';

/** The tests failed, from their p-values (null: too few answers to run it). */
export function failedTests(negativeP: number | null, requeryP: number | null): DocumentTest[] {
  const failed: DocumentTest[] = [];
  if (negativeP !== null && negativeP < DOC_ALPHA) failed.push('badAnswers');
  if (requeryP !== null && requeryP < DOC_ALPHA) failed.push('reasked');
  return failed;
}

export interface DocumentVerdict {
  flagged: boolean;
  /** In English, for the API's readers; the console words `failedTests` in its own language. */
  reasons: string[];
  /** The negative-rate test, for display. */
  negativeP: number | null;
  requeryP: number | null;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Tests one document against its project's baseline negative rate. */
export function judgeDocument(d: DocumentCounts, baselineNegativeRate: number): DocumentVerdict {
  const negativeP = d.scored >= MIN_DOC_TRACES ? rateAboveBaseline(d.negative, d.scored, baselineNegativeRate).p : null;
  const requeryP =
    d.recent >= MIN_REQUERY_TRACES && d.before >= MIN_REQUERY_TRACES ? rateRising(d.recentRequeried, d.recent, d.beforeRequeried, d.before).p : null;
  const failed = failedTests(negativeP, requeryP);
  const reasons = failed.map((test) =>
    test === 'badAnswers'
      ? `${d.negative} of ${d.scored} answers citing it were bad (${pct(d.negative / d.scored)}) against ${pct(baselineNegativeRate)} for the project (p = ${negativeP!.toExponential(1)})`
      : `questions answered from it were re-asked ${pct(d.recentRequeried / d.recent)} of the time in the last ${RECENT_DAYS} days against ${pct(d.beforeRequeried / d.before)} before (p = ${requeryP!.toExponential(1)})`,
  );
  return { flagged: failed.length > 0, reasons, negativeP, requeryP };
}

/**
 * Owner of a document id: the first matching pattern, `*` matching any run of characters
 * (`policies/*`, `*.md`, `refunds.md`).
 */
export function ownerOf(docId: string, owners: readonly { pattern: string; owner: string }[]): string | undefined {
  return owners.find((o) => globMatches(o.pattern, docId))?.owner;
}

/**
 * Whether `text` matches a pattern whose only wildcard is `*`. The parts between stars are found
 * in order, each as early as it can be, which is enough when `*` is the only wildcard; a regular
 * expression of the same pattern can backtrack exponentially (`*a*a*a*a*a*a*c`).
 */
export function globMatches(pattern: string, text: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === text;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const end = text.length - last.length;
  if (end < first.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
