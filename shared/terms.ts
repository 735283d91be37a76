import { withoutPushback } from './contradiction.ts';
import { MAX_QUERY_KEY_CHARS } from './thresholds.ts';
/**
 * Terms of a text for lexical comparisons (query vs chunk, correction vs chunk, answer vs
 * follow-up): lower-cased runs of letters and digits minus a short English stop list; text in
 * scripts written without spaces (Chinese, Japanese) contributes character bigrams instead.
 * No stemming: it is predictable, language-neutral and what BM25 baselines use.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by can did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this those to was we were ' +
    'what when where which who why will with would you your'
  ).split(' '),
);

/**
 * Words a follow-up points back with ("what about…", "anything else?", English only) and that name
 * no subject: the demo does not search for them in one, and a rewrite that drops them has not drifted.
 */
export const POINTING_BACK: ReadonlySet<string> = new Set(['about', 'also', 'again', 'else', 'instead', 'more', 'other', 'too']);

const WORD = /[\p{L}\p{N}]+/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The terms of `text`, in order, repeats kept. */
export function terms(text: string): string[] {
  return scan(text);
}

/**
 * The terms of `text`, and the characters of its words in unspaced scripts, in order, repeats kept:
 * a query's run of one such character is a term of one character, which a text holding it matches
 * though its own terms are bigrams ("退" in "退款"). BM25 indexes the characters apart from the
 * terms, so they count in no document's length and the bigrams score as without them.
 */
export function termsAndCharacters(text: string): { terms: string[]; characters: string[] } {
  const characters: string[] = [];
  return { terms: scan(text, characters), characters };
}

/** The distinct terms of `text` and the characters of its unspaced words: what a query's terms are looked for in. */
export function termSet(text: string): Set<string> {
  const { terms, characters } = termsAndCharacters(text);
  return new Set([...terms, ...characters]);
}

/** A term of one character of an unspaced script: a query's run of one, matched by the characters a text holds (`termsAndCharacters`). */
export const isUnspacedCharacter = (term: string): boolean => UNSPACED.test(term) && [...term].length === 1;

function scan(text: string, characters?: string[]): string[] {
  const out: string[] = [];
  for (const [word] of text.toLowerCase().normalize('NFKC').matchAll(WORD)) {
    if (UNSPACED.test(word)) {
      const chars = [...word];
      if (chars.length === 1) out.push(word);
      for (let i = 0; i < chars.length - 1; i++) out.push(chars[i]! + chars[i + 1]!);
      if (characters) for (const c of chars) if (UNSPACED.test(c)) characters.push(c);
    } else if (!STOP_WORDS.has(word)) {
      out.push(word);
    }
  }
  return out;
}

/** Share of `a`'s distinct terms (those in `ignore` aside) that also occur in `b`, 0-1 (0 when `a` has none). */
export function termOverlap(a: string, b: string, ignore?: ReadonlySet<string>): number {
  const x = new Set(terms(a).filter((t) => !ignore?.has(t)));
  if (x.size === 0) return 0;
  const y = new Set(terms(b));
  let hits = 0;
  for (const t of x) if (y.has(t)) hits++;
  return hits / x.size;
}

/**
 * The terms of what a question asks: one that opens by saying the answer before it was wrong
 * ("That's wrong. Is it 30 days?") asks what follows, and "wrong" is nothing to look for.
 * One that only pushes back ("Are you sure?") keeps its own terms.
 */
export const questionTerms = (query: string): string[] => terms(withoutPushback(query) || query);

/**
 * A key under which the same question asked with other spacing, case, punctuation or word order
 * groups together: its distinct terms, sorted. Near-identical queries share it, and so does one
 * that opens by saying the answer before it was wrong ("That's wrong. Is it 30 days?"): what it
 * asks is the question. Empty for stop words alone, which answers are not grouped under (`traceQueryKey`).
 */
export function queryKey(query: string): string {
  return bounded([...new Set(questionTerms(query))].sort().join(' '));
}

/**
 * The key an answer (a trace) is grouped under as a question: its query's `queryKey`, or, when that
 * is empty (stop words alone: "Why?", "How so?", "What is it?"), a key of the trace's own. Such a
 * follow-up means something only after its turn before, so two sessions' "Why?" are not one
 * question: none joins another's history, review items, eval items or training examples. It
 * begins with '#', which no term does, and spells its spaces (and '%') as %20 (and %25), since a
 * space would split it into terms another key could share.
 */
export function traceQueryKey(query: string, traceId: string): string {
  return queryKey(query) || bounded(`#trace:${traceId.replaceAll('%', '%25').replaceAll(' ', '%20')}`);
}

/** A key within MAX_QUERY_KEY_CHARS: a longer one keeps its start and a hash of the whole. */
function bounded(key: string): string {
  if (key.length <= MAX_QUERY_KEY_CHARS) return key;
  const hash = `#${fnv1a(key)}`;
  return `${key.slice(0, MAX_QUERY_KEY_CHARS - hash.length - 1).trimEnd()} ${hash}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: tells apart long keys that begin alike. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
