/**
 * Whether a follow-up pushes back on the answer before it (seed 000: "whether a follow-up question
 * contradicts something the previous answer stated"): "that's wrong", "are you sure?", "actually,
 * it is…", "不对，…", "eso está mal", "c'est faux", "das stimmt nicht", "isso está errado",
 * "違います", "è sbagliato". Phrases, not single words, so a question about something wrong ("what's
 * wrong with my order?", "如果地址填错了怎么办？", "was ist falsch an meiner Bestellung?") or one that
 * starts with "no" ("no refunds for opened items?", "¿no hay reembolso?") or "actually" ("actually,
 * what about shipping?") is not taken for one.
 */

// "No, …", "Nope.", "Non, …", "Nein.", "Não, …", "いいえ、…": a "no" standing alone at the start. One
// opening a question ("no refunds for…?", "non remboursable ?", "não há reembolso?") asks, it does not
// object, nor does "No." for number ("No. of items?", "No. 5 is missing").
const NO_FIRST = /^[\s¡]*(no|nope|non|nein|n[aã]o|いいえ|いや)\s*(?:[,!、。]|\.(?!\s*(?:\d|#|of(?![\p{L}\p{N}]))))/u;

const ENGLISH = [
  /^\s*(no|nope)\s+(that|this|it|you)\b/,
  // "That's wrong", "this is not right", "it was incorrect", "that's not what I asked".
  /\b(that|this|it)\s*(?:'s|’s|\s+is|\s+was)\s+(?:just\s+|simply\s+|completely\s+|totally\s+|still\s+)?(wrong|incorrect|false|inaccurate|outdated|out of date|not (right|correct|true|accurate|what i (asked|meant|wanted)))\b/,
  /\byou(?:'re|’re|\s+are)\s+(wrong|mistaken|incorrect)\b/,
  /\b(wrong answer|are you sure|can'?t be right|doesn'?t sound right|doesn'?t seem right|that'?s not it)\b/,
  // "Actually, it is 30 days", "actually no", "actually the deadline is April 30": the user correcting
  // the answer; only "actually" goes with the pushback, the correction is what they ask about.
  /^\s*actually\b(?=[\s,]+(?:no|not|(?:it|that|this)(?:'s|’s|\s+(?:is|was)(?:n'?t|n’t)?)|the(?:\s+[\w-]+){1,3}?\s+(?:is|are|was|were|says|said)(?:n'?t|n’t)?)\b)/,
];

// Chinese: an objection standing as a clause of its own, at the start or after punctuation, with at
// most a subject before it ("这", "你", "答案") and a particle after it ("吧", "吗"), then punctuation
// or the end: "不对，…", "错了。", "你说错了", "这不对吧？". The same words inside a question ("地址填错了
// 怎么办？", "信息不对称", "不准确的地址怎么修改？") say nothing of the answer. "你确定…" opening a clause
// questions it whatever follows. Not after a colon: "错误：不正确" or "エラー：違います" quotes a message.
const CLAUSE_START = '(?<=^|[\\s,.!?;，。！？；、…])';
const CLAUSE_END = '(?=$|[\\s,.!?;:，。！？；：、…~])';
const SUBJECT = '(?:(?:这|那)个?|这样|你说的|你讲的|你的?|(?:这个|你的)?(?:回答|答案|说法))?';
const OBJECTION = '(?:也|就|完全|根本|好像)?(?:不对|错了|是错的|不正确|不准确|(?:说|讲|答|搞|弄)错了?|不是这样的?)[吧啊呀吗呢哦]*';

// Japanese, like Chinese: an objection standing as a clause of its own, with at most a subject before
// it ("それは", "その回答は") and a sentence ending after it ("よ", "と思います"): "違います。", "それは
// 間違いです", "本当ですか？". The same words inside a question ask ("住所が間違っていたらどうすればいい
// ですか？", "違う住所に送れますか？" — to another address); "本当に" only asking ("本当に？"), as it is
// also "really" ("本当に、ありがとうございます").
const JA_SUBJECT = '(?:(?:それ|これ|その(?:回答|答え|説明)|(?:あなた|君)の(?:回答|答え|説明)|回答|答え|説明)(?:は|が|も)?)?';
const JA_OBJECTION =
  '(?:(?:全然|全く|まったく|完全に)?(?:違う|違います|ちがう|ちがいます|間違い|間違って(?:い)?(?:る|ます)|誤り|正しくない|正しくありません|そう(?:じゃ|では)(?:ない|ありません)|嘘|うそ|ウソ)(?:です|だ|でしょう?)?(?:よ|ね|と思う|と思います)*|(?:本当|ほんとう?)(?:に|ですか|なの|なんですか)?(?=s*[?？])|確かですか)';

/**
 * A language written with spaces, as the sources of its phrases (`spaced` puts them together):
 * - `answer` then `wrong` push back wherever they stand ("eso está mal", "la respuesta es
 *   incorrecta"), but for a choice ("¿esto es falso o verdadero?");
 * - `wrong` without it (unless `bare`), and `alone`, only as a clause of their own, at the start or after a sentence's punctuation (or a line
 *   break before a capital letter) and followed by punctuation or the end, not "?": "No es cierto.", "Está mal, …"; "¿está mal devolver un
 *   regalo?" and "¿qué pasa si la dirección está mal?" ask. Quotes and brackets do not end a clause:
 *   "it says (incorrect) next to my email" quotes what a page says;
 * - `anywhere`: phrases that push back wherever they stand ("te equivocas", "¿estás seguro?");
 * - `opening`: phrases that push back only opening the text or a sentence (after ".", "!", "?",
 *   "…" or a line break before a capital letter; a "¿" or "¡" of its own, also opening a line, and a
 *   connective such as "pero" allowed), or after a comma or line break ending a clause that states a
 *   value ("Son 30 días, ¿está seguro?": a value is not what may be safe), whatever follows: an
 *   "are you sure" whose subject may be a third person, or whose "sure" may be "safe" ("Meine Daten,
 *   sind sie sicher?", "El pago con tarjeta, ¿está seguro?", "El pago de 30 euros, ¿está seguro?",
 *   "Alguém tem certeza sobre o prazo?");
 * - `first`: as `opening`, but only opening the text: after a sentence of its own, "is it really
 *   safe?" may ask about what that sentence named ("Voglio pagare con carta. È davvero sicuro?").
 * Unaccented spellings count too ("esta mal", "nao"), and both apostrophes ("c'est", "c’est").
 */
interface Spaced {
  answer: RegExp;
  wrong: RegExp;
  /** Whether `wrong` is a bare adjective, its verb in `answer` ("c'est" + "faux"): then only `alone` stands alone. */
  bare?: true;
  alone?: RegExp;
  anywhere: RegExp;
  opening?: RegExp;
  /** Phrases that push back only opening the text (a connective allowed), not after a sentence that may say what they are about. */
  first?: RegExp;
}

// Spanish. "¿Está seguro el pago?" and "El pago, ¿está seguro?" ask whether paying is safe: "está"
// (usted) only opening, as a question of its own or before "de que", "de eso"; before them also right
// after a comma, where no subject stands before it ("El plazo es de 14 días, ¿está segura de eso?").
// What one is sure of ("de eso", "de esto") goes with the pushback, wherever it stands.
const ES_SURE_OF = String.raw`\s+de\s+(?:eso|esto|que)`;
const SPANISH: Spaced = {
  answer: /eso|esto|(?:la|tu|su|esa)\s+respuesta/,
  wrong:
    /est[aá]\s+(?:muy\s+|todo\s+)?(?:mal|equivocad[oa])|es\s+(?:totalmente\s+|completamente\s+)?(?:incorrect[oa]|fals[oa]|err[oó]ne[oa]|mentira)|no\s+es\s+(?:del\s+todo\s+)?(?:correct[oa]|ciert[oa]|verdad|exact[oa]|as[ií])/,
  anywhere: new RegExp(
    String.raw`te\s+(?:equivocas|equivocaste|has\s+equivocado)|est[aá]s\s+equivocad[oa]|usted\s+(?:se\s+equivoca|est[aá]\s+equivocad[oa])|(?:est[aá]s|est[aá]\s+usted)\s+segur[oa](?:${ES_SURE_OF})?|(?<=,)\s*(?:¿\s*)?est[aá]\s+segur[oa]${ES_SURE_OF}|(?:(?:eso|esto)\s+)?no\s+es\s+lo\s+que\s+(?:yo\s+)?(?:pregunt[eé]|quer[ií]a|ped[ií])`,
  ),
  opening: new RegExp(String.raw`est[aá]\s+segur[oa](?:${ES_SURE_OF}|(?=\s*\?))`),
};

// French. Unaccented "sur" is "on" ("vous êtes sur la page"): "vous êtes sur ?" only before "?"; an
// "en" ("vous en êtes sûr ?", "en êtes-vous sûr ?") goes with it. Of the adjectives alone, only
// "Faux." objects: "incorrect" or "inexact" alone may quote a page, in English too.
const FRENCH: Spaced = {
  answer: /c['’]est|(?:la|ta|votre|cette)\s+r[ée]ponse\s+est/,
  wrong: /(?:compl[eè]tement\s+|totalement\s+|tout\s+[àa]\s+fait\s+)?(?:faux|fausse|incorrecte?|inexacte?|erron[ée]e?)/,
  bare: true,
  alone: /(?:compl[eè]tement\s+|totalement\s+|tout\s+[àa]\s+fait\s+)?faux/,
  anywhere:
    /(?:ce\s+n['’]est|c['’]est|(?:la|ta|votre|cette)\s+r[ée]ponse\s+n['’]est)\s+pas\s+(?:du\s+tout\s+)?(?:vrai|correcte?|exacte?|[çc]a|ce\s+que\s+(?:j['’]ai|je\s+(?:t['’]|vous\s+)ai)\s+demand[ée])|tu\s+te\s+trompes|tu\s+t['’]es\s+tromp[ée]e?|vous\s+vous\s+(?:trompez|[eê]tes\s+tromp[ée]e?s?)|(?:tu\s+as|t['’]as|vous\s+avez)\s+tort|(?:(?:tu\s+|t['’])(?:en\s+)?es|vous\s+(?:en\s+)?[eê]tes|(?:en\s+)?(?:es-tu|[eê]tes-vous))\s+(?:bien\s+|vraiment\s+)?(?:s[uû]re?s?(?=\s*\?)|sûre?s?)/,
};

// German. "Was ist falsch an meiner Bestellung?" names no answer; "das stimmt nicht mit der Rechnung
// überein" says it does not match, so "stimmt nicht" stands alone. "Sind sie sicher?" may ask whether
// they are safe ("Meine Daten, sind sie sicher?", "Wann sind sie sicher?"): "Sind Sie sicher" only
// opening, "bist du sicher" anywhere.
const GERMAN: Spaced = {
  answer: /das|dies|(?:die|deine|ihre|diese)\s+antwort/,
  wrong:
    /(?:ist|war)\s+(?:(?:doch|leider|so|aber|völlig|komplett|total|einfach|ganz)\s+)*(?:falsch|inkorrekt|nicht\s+(?:ganz\s+|so\s+)?(?:richtig|korrekt|wahr|zutreffend)|nicht\s+das,?\s+was\s+ich\s+(?:gefragt|gemeint))/,
  alone: /(?:(?:das|dies|es|(?:die|deine|ihre|diese)\s+antwort)\s+)?stimmt\s+(?:(?:so|doch|leider|aber|überhaupt|gar|einfach)\s+)*nicht(?:\s+ganz)?/,
  anywhere:
    /das\s+(?:habe?\s+ich\s+nicht\s+(?:gefragt|gemeint)|meinte\s+ich\s+nicht|war\s+nicht\s+meine\s+frage)|du\s+(?:irrst\s+dich|hast\s+dich\s+geirrt|liegst\s+falsch|hast\s+unrecht)|sie\s+(?:irren\s+sich|haben\s+sich\s+geirrt|liegen\s+falsch|haben\s+unrecht)|bist\s+du\s+(?:dir\s+)?(?:da\s+)?sicher|sind\s+sie\s+sich\s+(?:da\s+)?sicher/,
  opening: /sind\s+sie\s+(?:da\s+)?sicher/,
};

// Portuguese. "O endereço está errado, como corrijo?" asks. "Tem certeza" without "você" may have
// another subject ("Alguém tem certeza sobre o prazo?"): only opening, or right after a comma, where
// no subject stands before it ("Isso, tem a certeza?"). What one is sure of ("disso", "de que",
// Brazil's "que") goes with the pushback, wherever it stands.
const PT_SURE = String.raw`(?:a\s+)?certeza(?:\s+(?:disso|disto|de\s+que|que))?`;
const PORTUGUESE: Spaced = {
  answer: /isso|isto|(?:a|sua|tua|essa)\s+resposta/,
  wrong:
    /est[aá]\s+(?:totalmente\s+|completamente\s+|tudo\s+)?(?:errad[oa]|incorret[oa])|[ée]\s+(?:fals[oa]|mentira|incorret[oa])|n[aã]o\s+(?:est[aá]\s+(?:cert[oa]|corret[oa])|[ée]\s+(?:bem\s+assim|verdade|cert[oa]|corret[oa]|isso))/,
  anywhere: new RegExp(
    String.raw`(?:voc[eê]\s+est[aá]|(?:tu\s+)?est[aá]s)\s+(?:errad[oa]|enganad[oa])|voc[eê]\s+se\s+enganou|(?:voc[eê]\s+tem|tens|(?<=,)\s*tem)\s+${PT_SURE}|(?:(?:isso|isto)\s+)?n[aã]o\s+(?:foi|[ée])\s+(?:isso|o)\s+que\s+(?:eu\s+)?(?:perguntei|quis\s+dizer|pedi)`,
  ),
  opening: new RegExp(String.raw`tem\s+${PT_SURE}`),
};

// Italian; "è" also typed "e'". "Ti sbagli" and "hai sbagliato" stand alone: "cosa succede se hai
// sbagliato l'indirizzo?" asks. "È sicuro" (Lei) is also "is it safe" ("Il sito è sicuro?", "È sicuro
// pagare con carta?", "Voglio pagare con carta. È sicuro?"): only "ne è sicuro", opening a sentence,
// or "è proprio (davvero) sicuro", opening the text ("Voglio pagare con carta. È davvero sicuro?"
// asks too), before "?".
const ITALIAN: Spaced = {
  answer: /questo|quello|ci[oò]|(?:la\s+|questa\s+)?(?:tua\s+|sua\s+)?risposta/,
  wrong:
    /(?:è|é|e['’])\s+(?:completamente\s+|totalmente\s+|proprio\s+|tutto\s+)?(?:sbagliat[oa]|errat[oa]|fals[oa]|scorrett[oa]|inesatt[oa])|non\s+(?:è|é|e['’])\s+(?:proprio\s+|del\s+tutto\s+)?(?:vero|corrett[oa]|giust[oa]|esatt[oa]|cos[iì])/,
  alone: /ti\s+sbagli|ti\s+sei\s+sbagliat[oa]|hai\s+sbagliato/,
  anywhere:
    /(?:ne\s+)?sei\s+(?:proprio\s+|davvero\s+)?sicur[oa]|(?:(?:questo|ci[oò])\s+)?non\s+(?:è|é|e['’])\s+(?:quello|ci[oò])\s+che\s+(?:ho\s+chiesto|intendevo|volevo)/,
  opening: /ne\s+(?:è|é|e['’])\s+(?:proprio\s+|davvero\s+)?sicur[oa](?=\s*\?)/,
  first: /(?:è|é|e['’])\s+(?:proprio|davvero)\s+sicur[oa](?=\s*\?)/,
};

/**
 * Words that may come before an "are you sure" opening a sentence: "but", "and", "ok", "thanks".
 * Opening the text or a sentence before a pushback, they go with it when it is left out.
 */
const CONNECTIVE = '(?:pero|mas|mais|ma|aber|und|y|e|et|but|and|so|well|hmm|ok|okay|thanks|gracias|obrigad[oa]|grazie|danke|merci)';

/**
 * A verb ("is", "are"), a "that" before it or not, opening a clause that states a value: "Son 30 días",
 * "Es sind 30 Tage", "Das ist 1 Tag", "São 30 dias", "Sono 30 giorni". A clause opening with what it
 * names ("El pago de 30 euros", "Ich habe 2 Konten") may be asking whether that is safe.
 */
const STATES = String.raw`(?:(?:eso|esto|das|dies|isso|isto|questo|ci[oò])\s+)?(?:es|son|era|eran|ist|sind|war|waren|[éè]|e['’]|s[aã]o|eram|sono|erano)`;

/**
 * A line break before a capital letter opens a sentence ("Son 30 días\nEstá seguro?"); one before a
 * small letter may only wrap a line by hand ("El pago con tarjeta\nestá seguro?"). The patterns read
 * small letters, so such a break is marked first, to open a sentence as "." does, with a no-break
 * space: a space to them, one NFKC leaves in no text, and one byte wide (a wider character makes a
 * long text several times slower to read).
 */
const SENTENCE_LINE = '\u00a0';
const CAPITAL_LINE = /\n(?=[^\S\n]*\p{Lu})/gu;
const markSentenceLines = (text: string): string => text.replace(CAPITAL_LINE, `\n${SENTENCE_LINE}`);
/** What a sentence opens after, in a character class. */
const SENTENCE_END = `.!?…${SENTENCE_LINE}`;

/** One pattern of a spaced language's phrases. `\b` knows only ASCII letters: a word ends where no letter or digit follows ("está", "ü"). */
function spaced({ answer, wrong, bare, alone, anywhere, opening, first }: Spaced): RegExp {
  const word = (phrase: string) => String.raw`(?<![\p{L}\p{N}])(?:${phrase})(?![\p{L}\p{N}])`;
  // The spaces before go with the phrase: a lookbehind over them would scan back the whole run at each space.
  const clause = (phrase: string) => String.raw`(?<=^|[,;¿¡${SENTENCE_END}])\s*(?:${phrase})(?=\s*(?:$|[,.!;…]))`;
  // A "¿" before is looked behind (over spaces only there), so the question left keeps it: "¿son 30 días?".
  // So does a "¿" opening a line, and a connective before the phrase ("Pero ¿está seguro?", "Ok, tem
  // certeza?"), which goes with the pushback. A line break before a small letter does not: text
  // wrapped by hand breaks lines mid-sentence. Nor does a comma, but after a clause stating a value,
  // which is not what may be safe: one opening with `STATES` and a number in it ("Son 30 días, ¿está
  // seguro?", "son 30 dias\nesta seguro?"), or a number with its unit alone ("30 días, ¿está
  // seguro?"), the clause looked behind. Each lookbehind passes only right after punctuation, a line
  // break or a "¿", and scans back no further than the comma before, so a long run of spaces, commas
  // or line breaks is scanned once (the spaces after a number's unit stop at a line break, or a run of
  // line breaks would be scanned back from each).
  const value = String.raw`(?:${CONNECTIVE}\s+)?(?:${STATES}\s[^${SENTENCE_END}¿¡,\n\p{N}]*\p{N}[^${SENTENCE_END}¿¡,\n]*|\p{N}[^\s,]*(?:[^\S\n]+\p{L}+)?[^\S\n]*)`;
  const opens = (phrase: string) =>
    String.raw`(?:(?<=^|[${SENTENCE_END}]|(?:^|[${SENTENCE_END}\n])\s*[¿¡])\s*|(?<=^|[${SENTENCE_END}])\s*${CONNECTIVE},?\s+(?:[¿¡]\s*)?|(?<=(?:^|[${SENTENCE_END}¿¡,\n])\s*${value}[,\n])\s*(?:[¿¡]\s*)?)(?:${phrase})`;
  const opensText = (phrase: string) => String.raw`^\s*(?:${CONNECTIVE}[,.!]?\s+)?(?:[¿¡]\s*)?(?:${phrase})`;
  const standsAlone = [bare ? undefined : wrong, alone].flatMap((p) => (p ? [p.source] : [])).join('|');
  // "Falso o verdadero", "faux ou vrai", "falsch oder richtig": a choice asked about, not a verdict.
  const choice = String.raw`(?!\s+(?:o|ou|oder|or)(?![\p{L}\p{N}]))`;
  return new RegExp(
    [
      word(String.raw`(?:${answer.source})\s+(?:${wrong.source})${choice}`),
      word(anywhere.source),
      clause(standsAlone),
      ...(opening ? [word(opens(opening.source))] : []),
      ...(first ? [word(opensText(first.source))] : []),
    ].join('|'),
    'u',
  );
}

/** What stands for a phrase left out, until what it leaves is cleared: a character no typed text keeps. */
const LEFT_OUT = '\u0000';
let leftOverPattern: RegExp | undefined;
/**
 * A phrase left out, the connective opening it and the punctuation it leaves but a "¿" or "¡" opening
 * what follows. The spaces before a connective are matched, not looked behind: a lookbehind over them
 * would scan back the whole run at each space. A run before the phrase is matched only from its start,
 * or a long run of spaces away from any phrase would be scanned to its end from each of its characters.
 */
const leftOver = (): RegExp =>
  (leftOverPattern ??= new RegExp(
    String.raw`(?:(?<=^|[${SENTENCE_END}])\s*${CONNECTIVE}[\s,]*[¿¡]?\s*|(?<![\s,;:])[\s,;:]*(?:[¿¡](?=${LEFT_OUT}\s*[?!]))?)?${LEFT_OUT}(?:(?![¿¡])[\s\p{P}])*`,
    'giu',
  ));

let compiled: { patterns: RegExp[]; phrases: RegExp[] } | undefined;

/**
 * Every language's patterns, and the same to remove wherever they stand in any case, made on first
 * use: the console imports this module (through shared/terms.ts) and never calls it, and its bundler
 * leaves out only what nothing runs on import.
 */
function pushbackPatterns(): { patterns: RegExp[]; phrases: RegExp[] } {
  if (!compiled) {
    const patterns = [
      NO_FIRST,
      ...ENGLISH,
      new RegExp(`${CLAUSE_START}(?:${SUBJECT}${OBJECTION}${CLAUSE_END}|你(?:真的)?确定[吗嘛么]?)`),
      new RegExp(`${CLAUSE_START}${JA_SUBJECT}${JA_OBJECTION}${CLAUSE_END}`),
      ...[SPANISH, FRENCH, GERMAN, PORTUGUESE, ITALIAN].map(spaced),
    ];
    compiled = { patterns, phrases: patterns.map((pattern) => new RegExp(pattern.source, `${pattern.flags}gi`)) };
  }
  return compiled;
}

/** Whether `followUp`, the next question of a conversation, says the answer before it was wrong. */
export function contradictsAnswer(followUp: string): boolean {
  const text = markSentenceLines(followUp.normalize('NFKC')).toLowerCase();
  return pushbackPatterns().patterns.some((pattern) => pattern.test(text));
}

/**
 * What a follow-up asks once its pushback is left out ("That's wrong. Is it 30 days?" → "Is it 30
 * days?"): the words saying the answer was wrong are not what to search for. Empty when it only
 * pushes back ("Are you sure?"); a question that does not push back is returned as it is.
 */
export function withoutPushback(followUp: string): string {
  if (!contradictsAnswer(followUp)) return followUp;
  let text = markSentenceLines(followUp.normalize('NFKC').replaceAll(LEFT_OUT, ' '));
  for (const pattern of pushbackPatterns().phrases) text = text.replace(pattern, LEFT_OUT);
  // The punctuation a phrase leaves ("Is it 30 days? Are you sure?" → "Is it 30 days? ?"), and a
  // connective opening it ("Gracias, ¿estás seguro?"), go with it; so does what it leaves in front
  // ("No, that's not right. Does…" → ". Does…"), but for the "¿" or "¡" that opens what follows
  // ("Eso está mal. ¿Son 30 días?" → "¿Son 30 días?"); one opening a phrase that ends its sentence goes with it.
  return text
    .replace(leftOver(), ' ')
    .replaceAll(`\n${SENTENCE_LINE}`, '\n')
    .replace(/^[\s\p{P}]+/u, (lead) => {
      const last = lead.trimEnd().slice(-1);
      return last === '¿' || last === '¡' ? last : '';
    })
    .trim();
}
