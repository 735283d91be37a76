import { withoutPushback } from './contradiction.ts';
import { fold } from './fold.ts';
import { MAX_QUERY_KEY_CHARS } from './thresholds.ts';
/**
 * Terms of a text for lexical comparisons (query vs chunk, correction vs chunk, answer vs
 * follow-up): its words (`WORD`), folded (`termFold`), minus a short English stop list, and minus
 * the stop list of Spanish, French, German, Portuguese or Italian when the text is in that language
 * (`FOREIGN`); text in scripts written without spaces (Chinese, Japanese) contributes character
 * bigrams instead. No stemming: it is predictable, language-neutral and what BM25 baselines use.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by can did do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our she so than that the their them then there these they this those to was we were ' +
    'what when where which who why will with would you your'
  ).split(' '),
);

/**
 * Stop words of the other languages the product reads: articles, prepositions, pronouns, auxiliaries,
 * question words. Many are English words too ("die", "son", "come", "con", "man"), so a text loses
 * them only when it is in that language: it holds at least two distinct words of that list that are
 * not English (`ALSO_ENGLISH`, `STOP_WORDS`) nor written as acronyms ("MIT", "ES"), no fewer of them
 * than of any other list, and more than the English stop words it holds that are not of that list.
 * A rule this plain is predictable, and English text reads as it always did: a quoted foreign word
 * or two ("de novo", "et al.", "von Willebrand") tell nothing against its own stop words. "Without"
 * ("sin", "sans", "sem", "ohne", "senza") is none, as in English: "envío sin seguro" asks another thing.
 */
const FOREIGN = [
  // Spanish
  'el la los las lo un una unos unas de del al a en con por para sobre entre hasta desde y o u e ni que qué ' +
    'cual cuál quien quién como cómo cuando cuándo donde dónde cuanto cuánto es son está están estás estoy ser fue ' +
    'era hay ha han he se me te le les nos mi mis tu tus su sus yo tú él ella ellos usted ustedes este esta esto ese ' +
    'esa eso si sí no pero más muy ya también porque puedo puede',
  // French
  'le la les l un une des du de d au aux a à et ou où que qu qui quoi quel quelle quels quelles ce c cet cette ces ' +
    'ça ca est sont être été était ai as avez avons ont suis es je j tu il elle on nous vous ils elles me m te t se s ' +
    'moi toi lui leur leurs mon ma mes ton ta tes son sa ses notre votre nos vos en dans sur sous pour par avec ' +
    'chez entre vers ne n pas plus ni mais donc car si y comment quand pourquoi combien',
  // German
  'der die das den dem des ein eine einer einen einem eines und oder aber nicht kein keine keinen ist sind war ' +
    'waren bin bist sein seine hat haben habe hast wird werden wurde kann können ich du er sie es wir ihr mich mir ' +
    'dich dir sich uns mein meine dein deine ihre zu zum zur im in an am auf aus bei mit nach von vor für über um ' +
    'durch bis wie was wer wo wann warum wenn dass ob als auch noch nur so schon sehr man doch denn da dann hier gibt',
  // Portuguese
  'o a os as um uma uns umas de do da dos das no na nos nas em ao aos à às pelo pela pelos pelas por para com ' +
    'sobre entre até e ou que quê qual quais quem como quando onde quanto é são está estão estou ser foi era há tem têm ' +
    'ter eu tu você vocês ele ela eles elas nós me te se lhe meu minha seu sua isso isto esse essa este esta não sim ' +
    'mas mais muito também porque já posso pode',
  // Italian
  'il lo la i gli le un uno una di del dello della dell dei degli delle a al allo alla all ai agli alle da dal ' +
    'dalla dai in nel nello nella nell nei negli nelle su sul sulla con per tra fra e ed o che chi cui come dove ' +
    'qual quando quanto quale perché non è sono sei siamo siete era essere ho hai ha abbiamo avete hanno mi ti si ci vi ne ' +
    'io tu lui lei noi voi loro mio mia miei mie tuo tua suo sua questo questa quello quella c l d anche ma più molto ' +
    'se posso può',
].map((list) => list.split(' '));

/** Words of `FOREIGN` that English text holds too (words, abbreviations, letters): they tell no language. */
const ALSO_ENGLISH = new Set(
  (
    'a al all als am an as bin bis c ca car ci come con d da del den des die do e ed er era eu ha han hat hay he i im in ' +
    'j l m ma man me mi mon n ne ni no non nos o ob on par para pas per plus pour s se ser si so son t te tem ' +
    'ton u um un war was y et os'
  ).split(' '),
);

/**
 * Words a follow-up points back with ("what about…", "anything else?", "tell me more, please",
 * English only) and that name no subject: the demo does not search for them in one, and a rewrite that drops them has not drifted.
 */
export const POINTING_BACK: ReadonlySet<string> = new Set('about also again anything else instead more other please tell thanks too'.split(' '));

/** Whether terms name nothing of their own: none, or only words pointing back ("What else?", "Are you sure?" once its pushback is left out). */
export const namesNothing = (terms: Iterable<string>): boolean => [...terms].every((term) => POINTING_BACK.has(term));

/**
 * A word: a letter or digit, then letters, digits and the combining marks written on them (the
 * vowel signs of Hindi, Arabic's vowel marks), which are part of the word they sit in.
 */
export const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
/**
 * Marks a word is the same word without: Arabic's vowel marks (harakat, the dagger alif) and Hebrew's
 * points (niqqud, cantillation), which most text leaves out, and the variation selectors that pick a
 * glyph (of a Han character, an emoji), which would make a bigram of their own.
 */
const UNWEIGHED_MARKS = /[\u064B-\u065F\u0670\u0591-\u05C7]|\p{Variation_Selector}/gu;

/** A text as its terms are read: folded (`fold`), less the marks a word is the same without. */
export const termFold = (text: string): string => fold(text).replace(UNWEIGHED_MARKS, '');

/** A character of a script written without spaces (Chinese, Japanese), whose terms are bigrams. */
export const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

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

/**
 * Each listed word: `stop`, a bit for each language whose text loses it (bit 0, English: every
 * text; bit 1 + i, `FOREIGN[i]`); `tells`, a bit for each language of `FOREIGN` it counts towards
 * (the words of its list that are not English); `id`, its place.
 */
const LISTED = new Map<string, { id: number; stop: number; tells: number }>();
const list = (word: string, stop: number, tells: number) => {
  const listed = LISTED.get(word) ?? { id: LISTED.size, stop: 0, tells: 0 };
  LISTED.set(word, { id: listed.id, stop: listed.stop | stop, tells: listed.tells | tells });
};
for (const word of STOP_WORDS) list(word, 1, 0);
FOREIGN.forEach((words, i) => {
  for (const word of words) list(word, 2 << i, STOP_WORDS.has(word) || ALSO_ENGLISH.has(word) ? 0 : 2 << i);
});

/**
 * Of the text being scanned, per language of `FOREIGN` (1 + its index): `told`, the distinct words
 * that tell it; `english`, the distinct English stop words that are not of its list, which speak
 * against it. `seenIn[id]`, the scan that last counted a word.
 */
const told = new Int32Array(1 + FOREIGN.length);
const english = new Int32Array(1 + FOREIGN.length);
const seenIn = new Float64Array(LISTED.size);
let scans = 0;

function scan(text: string, characters?: string[]): string[] {
  const out: string[] = [];
  const scanning = ++scans;
  told.fill(0);
  english.fill(0);
  const lower = termFold(text);
  // As written, to tell an acronym ("MIT", "ES", "OS") from a word, where lower-casing kept the
  // length; not in a text written all in capitals, whose every word would look like one. Made only
  // when a word that tells a language comes up: most text (English) has none.
  let written: string | undefined;
  let aligned = false;
  const acronym = (at: number, word: string): boolean => {
    if (written === undefined) {
      written = text.normalize('NFKC').replace(UNWEIGHED_MARKS, '');
      aligned = written.length === lower.length && written !== written.toUpperCase();
    }
    return aligned && isAcronym(written, at, word);
  };
  // Whether the text holds a word of its own: one of no list, or one written as an acronym.
  let named = false;
  for (const match of lower.matchAll(WORD)) {
    const word = match[0];
    if (UNSPACED.test(word)) {
      named = true;
      const chars = [...word];
      if (chars.length === 1) out.push(word);
      for (let i = 0; i < chars.length - 1; i++) out.push(chars[i]! + chars[i + 1]!);
      if (characters) for (const c of chars) if (UNSPACED.test(c)) characters.push(c);
      continue;
    }
    const listed = LISTED.get(word);
    if (!listed) {
      named = true;
      out.push(word);
      continue;
    }
    // An English stop word speaks against the languages whose list it is not on; a word of another
    // list that is not English (`tells`, so never both) tells its languages, unless an acronym.
    if (seenIn[listed.id] !== scanning && (listed.stop & 1 || listed.tells)) {
      if (listed.tells && acronym(match.index, word)) named = true;
      else {
        seenIn[listed.id] = scanning;
        for (let l = 1; l < told.length; l++) {
          if (listed.tells & (1 << l)) told[l]!++;
          if (listed.stop & 1 && !(listed.stop & (1 << l))) english[l]!++;
        }
      }
    }
    if (!(listed.stop & 1)) out.push(word);
  }
  // Told as several languages at once, the text is in one of them: a word of every one's list goes.
  // Of stop words alone, it names nothing whichever it is in: a word of any one's list goes.
  const languages = textLanguages(named);
  const dropped = (stop: number) => (named ? (stop & languages) === languages : (stop & languages) !== 0);
  return languages ? out.filter((term) => !dropped(LISTED.get(term)?.stop ?? 0)) : out;
}

/**
 * The languages of `FOREIGN` the scanned text may be in, as bits (1 << (1 + its index)), or 0: those
 * told most, by two words at least, and by more words than English's stop words that are not of
 * their list ("Horario de la tienda?": Spanish, French or Italian, whose "de" and "la" all leave out).
 * A text of stop words alone (no word of its own, `named`) needs one word ("¿Dónde?", "Warum?",
 * "Como?"), and told as several languages loses the words of each ("Para que?"): like "Why?", it names nothing.
 */
function textLanguages(named: boolean): number {
  let most = named ? 1 : 0;
  let languages = 0;
  for (let l = 1; l < told.length; l++) {
    if (told[l]! > most) {
      most = told[l]!;
      languages = 1 << l;
    } else if (languages && told[l] === most) {
      languages |= 1 << l;
    }
  }
  for (let l = 1; l < told.length; l++) if (languages & (1 << l) && !(most > english[l]!)) return 0;
  return languages;
}

/**
 * Whether `word`, found at `at`, is written in capitals of two letters or more: an acronym tells no
 * language. The slice must be the word itself, as lower-casing may have moved what follows a letter
 * it lengthened and one it shortened.
 */
const isAcronym = (written: string, at: number, word: string): boolean => {
  if (word.length < 2) return false;
  const asWritten = written.slice(at, at + word.length);
  return asWritten !== word && asWritten === asWritten.toUpperCase() && fold(asWritten) === word;
};

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
 * asks is the question. Empty for a question that names nothing of its own, which answers are not
 * grouped under (`traceQueryKey`): stop words alone ("Why?"), a pushback alone ("Are you sure?") or
 * words pointing back ("What else?").
 */
export function queryKey(query: string): string {
  const asked = new Set(terms(withoutPushback(query)));
  if (namesNothing(asked)) return '';
  return bounded([...asked].sort().join(' '));
}

/**
 * The key an answer (a trace) is grouped under as a question: its query's `queryKey`, or, when that
 * is empty ("Why?", "How so?", "Are you sure?", "What else?"), a key of the trace's own. Such a
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
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
