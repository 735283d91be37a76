import { describe, expect, it } from 'vitest';
import { isUnspacedCharacter, queryKey, questionTerms, STOP_WORDS, termOverlap, termSet, terms, termsAndCharacters, traceQueryKey } from './terms.ts';
import { MAX_QUERY_KEY_CHARS } from './thresholds.ts';

describe('terms', () => {
  it('lower-cases, drops stop words and punctuation, keeps digits', () => {
    expect(terms('What is the refund window for OPENED items? 14 days!')).toEqual(['refund', 'window', 'opened', 'items', '14', 'days']);
  });

  it('reads a word whole with the combining marks written on it', () => {
    // Hindi's vowel signs and nasal marks are marks, not letters: the words stay whole.
    expect(terms('हिन्दी भाषा में जवाब')).toEqual(['हिन्दी', 'भाषा', 'में', 'जवाब']);
    // Arabic with its vowel marks written: the word whole, as it is written without them.
    expect(terms('كِتَاب جديد')).toEqual(['كتاب', 'جديد']);
    // A mark after no letter is no word.
    expect(terms('nao \u0308ve')).toEqual(['nao', 've']);
  });

  it("reads Arabic's vowel marks and Hebrew's points as the same word without them", () => {
    // Harakat (fatha, kasra, shadda, sukun, tanwin) and the dagger alif; most Arabic text leaves them out.
    expect(queryKey('ما هو الكِتَابُ المُقَدَّسُ؟')).toBe(queryKey('ما هو الكتاب المقدس؟'));
    expect(terms('هٰذا')).toEqual(terms('هذا'));
    // Niqqud and a cantillation mark.
    expect(queryKey('מָה זֶה סֵ֫פֶר')).toBe(queryKey('מה זה ספר'));
    expect(queryKey('كِتَاب')).not.toBe(queryKey('كتب'));
  });

  it('reads a Han character with a variation selector as the character: the selector picks a glyph and makes no bigram', () => {
    expect(terms('退\uFE00款期\u{E0100}限')).toEqual(terms('退款期限'));
    expect(termsAndCharacters('葛\u{E0101}西')).toEqual(termsAndCharacters('葛西'));
  });

  it('reads Turkish "İ" as "i", in any case, and still tells acronyms in a text holding it', () => {
    expect(terms('İstanbul')).toEqual(['istanbul']);
    expect(terms('ISTANBUL İSTANBUL istanbul')).toEqual(['istanbul', 'istanbul', 'istanbul']);
    expect(queryKey('Flights to İzmir')).toBe(queryKey('flights to izmir'));
    // "ES" and "MIT" written as acronyms tell no language, as without the "İ".
    expect(terms('ES und MIT in İzmir')).toEqual(['es', 'und', 'mit', 'izmir']);
  });

  it('cuts unspaced scripts into character bigrams', () => {
    expect(terms('退款期限')).toEqual(['退款', '款期', '期限']);
  });

  it("gives the characters of unspaced words apart from their bigrams, and a query's run of one as a term of one character", () => {
    expect(termsAndCharacters('退款 in 3 days，退')).toEqual({ terms: ['退款', '3', 'days', '退'], characters: ['退', '款', '退'] });
    expect(termSet('退货退款')).toEqual(new Set(['退货', '货退', '退款', '退', '货', '款']));
    expect(['退', '退款', 'a', '3'].map(isUnspacedCharacter)).toEqual([true, false, false, false]);
  });

  it('measures how much of one text the other covers', () => {
    expect(termOverlap('refund window opened items', 'Opened items can be refunded within a 14 day window')).toBe(0.75);
    expect(termOverlap('', 'anything')).toBe(0);
  });

  it('gives near-identical queries one key', () => {
    expect(queryKey('Refund window for opened items?')).toBe(queryKey('opened items: refund window'));
    expect(queryKey('refund window')).not.toBe(queryKey('shipping window'));
    // A question that pushes back asks what it asks.
    expect(queryKey("That's wrong. Refund window for opened items?")).toBe(queryKey('Refund window for opened items?'));
    expect(queryKey('不对，退款期限是多久？')).toBe(queryKey('退款期限是多久？'));
    // A question about something wrong is not a pushback: its words all count.
    expect(queryKey("What's wrong with my order?").split(' ')).toContain('wrong');
  });

  it('reads what a question asks, leaving a pushback’s words out', () => {
    expect(questionTerms("That's wrong. Refund window for opened items?")).toEqual(['refund', 'window', 'opened', 'items']);
    expect(questionTerms('Are you sure?')).toEqual(['sure']);
    expect(questionTerms("What's wrong with my order?")).toEqual(['s', 'wrong', 'order']);
  });

  it('keeps a long question’s key within its limit, still one per question', () => {
    const page = (last: string) => `${Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')} ${last}`;
    const key = queryKey(page('zebra'));
    expect(key.length).toBeLessThanOrEqual(MAX_QUERY_KEY_CHARS);
    expect(key).toMatch(/^word0 word1 .* #[0-9a-f]{8}$/);
    // The same terms in another order share it; a different last term does not.
    expect(queryKey(page('zebra').split(' ').reverse().join(' '))).toBe(key);
    expect(queryKey(page('yak'))).not.toBe(key);
  });

  it('keys an answer by its question, or by itself when the question is stop words alone', () => {
    const asked = 'Refund window for opened items?';
    expect(traceQueryKey(asked, 't-1')).toBe(queryKey(asked));
    expect(traceQueryKey(asked, 't-1')).toBe(traceQueryKey('opened items: refund window', 't-2'));
    // "Why?" in two sessions: two questions, each its own, and the same key whenever worked out again.
    for (const why of ['Why?', 'How so?', 'What is it?', 'Can you do it?']) expect(queryKey(why)).toBe('');
    expect(traceQueryKey('Why?', 't-1')).not.toBe(traceQueryKey('Why?', 't-2'));
    // So is one that only pushes back or points back: it asks what its turn before asked.
    for (const nothing of ['Are you sure?', '你确定吗？', "That's wrong.", 'What else?', 'And more?']) expect(queryKey(nothing), nothing).toBe('');
    expect(traceQueryKey('Are you sure?', 't-1')).not.toBe(traceQueryKey('Are you sure?', 't-2'));
    // So is one of another language's stop words alone, though one word, or one that two languages share, tells no language in a longer text.
    for (const nothing of ['¿Dónde?', '¿Qué?', 'Warum?', 'Wo denn?', 'Pourquoi ?', 'Où ça ?', 'Perché?', 'Como?', 'Quando?', 'Por quê?', 'O quê?'])
      expect(queryKey(nothing), nothing).toBe('');
    // Told as several languages as often, whose lists do not all hold each word: it names nothing in any of them.
    for (const nothing of ['Para que?', 'Wo está?', 'Y la?']) expect(queryKey(nothing), nothing).toBe('');
    expect(traceQueryKey('¿Dónde?', 't-1')).not.toBe(traceQueryKey('¿Dónde?', 't-2'));
    // A word of its own, or one written as an acronym, keeps them: "ES und MIT" names two things.
    expect(queryKey('¿Dónde, Lima?')).toBe('dónde lima');
    expect(queryKey('ES und MIT?')).toBe('es mit und');
    // Words pointing back beside a subject keep it a question of its own.
    expect(queryKey('What else about refunds?')).toBe('about else refunds');
    expect(traceQueryKey('How so?', 't-1')).toBe(traceQueryKey('Why?', 't-1'));
    // Never a question's key, whose terms are letters and digits.
    expect(traceQueryKey('Why?', 't-1')).toMatch(/^#/);
  });

  it('keeps an answer’s own key one term, distinct per trace id and within the limit', () => {
    // A space would make its words terms another key shares (training finds rewordings by shared terms).
    const spaced = traceQueryKey('Why?', 'refund window');
    expect(spaced.split(' ')).toEqual([spaced]);
    expect(spaced).not.toBe(traceQueryKey('Why?', 'refund%20window'));
    const long = (last: string) => traceQueryKey('Why?', `${'x'.repeat(510)}${last}`);
    expect(long('a').length).toBeLessThanOrEqual(MAX_QUERY_KEY_CHARS);
    expect(long('a')).not.toBe(long('b'));
  });

  it('drops the stop words of a question in Spanish, French, German, Portuguese or Italian, so its rephrasings share a key', () => {
    const rephrased: [string, string, string[]][] = [
      [
        'Wie lange dauert die Rückerstattung für einen Artikel?',
        'Wie lange dauert eine Rückerstattung für den Artikel?',
        ['lange', 'dauert', 'rückerstattung', 'artikel'],
      ],
      [
        'Quel est le délai de remboursement pour un article ouvert ?',
        "Quel est le délai de remboursement d'un article ouvert ?",
        ['délai', 'remboursement', 'article', 'ouvert'],
      ],
      [
        '¿Cuál es el plazo de reembolso de los artículos abiertos?',
        '¿Cuál es el plazo de reembolso para los artículos abiertos?',
        ['plazo', 'reembolso', 'artículos', 'abiertos'],
      ],
      ['Qual é o prazo de reembolso dos itens abertos?', 'Qual é o prazo de reembolso para os itens abertos?', ['prazo', 'reembolso', 'itens', 'abertos']],
      [
        'Qual è il termine per il rimborso di un articolo aperto?',
        "Qual è il termine del rimborso per l'articolo aperto?",
        ['termine', 'rimborso', 'articolo', 'aperto'],
      ],
    ];
    for (const [one, other, words] of rephrased) {
      expect(terms(one)).toEqual(words);
      expect(terms(other)).toEqual(words);
      expect(queryKey(one)).toBe(queryKey(other));
    }
  });

  it('drops the stop words every language a short question may be in shares, so it keys as said in full', () => {
    // "de" and "la" tell Spanish, French and Italian alike: whichever it is, they are stop words.
    const asked: [string, string, string[]][] = [
      ['Horario de la tienda?', '¿Cuál es el horario de la tienda?', ['horario', 'tienda']],
      ['Taille de la veste ?', 'Quelle est la taille de la veste ?', ['taille', 'veste']],
      ['Envío en la isla', '¿Cómo es el envío en la isla?', ['envío', 'isla']],
    ];
    for (const [short, full, words] of asked) {
      expect(terms(short), short).toEqual(words);
      expect(queryKey(short), short).toBe(queryKey(full));
    }
  });

  it('leaves English text as the English stop list alone makes it, though it holds stop words of other languages', () => {
    const english = [
      'Why do cells die when they come under oxidative stress?',
      'My son bought a man-made fibre jacket: pros and cons, or is the con the price?',
      'Per the 2019 guidelines, patients who die within 30 days of discharge are reviewed by the team. A son or ' +
        'daughter may come to the clinic with them. De novo synthesis, as Smith et al. show, is the main con of the ' +
        'regimen; von Willebrand factor, IL-6 and ES cells were measured in vitro at MIT, and the La Jolla cohort ' +
        'found no change (SE 0.4, 95% CI 1.2 to 2.0, Ser473).',
    ];
    for (const text of english) {
      const englishOnly = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !STOP_WORDS.has(word));
      expect(terms(text)).toEqual(englishOnly);
    }
    expect(terms('Why do cells die when my son has come home?')).toEqual(['cells', 'die', 'son', 'come', 'home']);
    // Short and keyword-like English, whose few stop words are outnumbered by words that are stop words elsewhere.
    const short = {
      'How do I comment on AI answers?': ['comment', 'ai', 'answers'],
      'OS and NAS': ['os', 'nas'],
      'ES modules in dir': ['es', 'modules', 'dir'],
      'von Willebrand factor at MIT?': ['von', 'willebrand', 'factor', 'mit'],
      'De novo assembly (Smith et al.)': ['de', 'novo', 'assembly', 'smith', 'et', 'al'],
    };
    for (const [text, expected] of Object.entries(short)) expect(terms(text), text).toEqual(expected);
  });

  it("reads another language's stop words out only when two of its words that are not English tell it, more than any other", () => {
    // Four German words against two of English's: German, whose stop words go.
    expect(terms("What does 'Das ist nicht mein Problem' mean?")).toEqual(['problem', 'mean']);
    // One German word ("der"; "was" and "in" are English too) against two of English's: nothing more goes.
    expect(terms("Was bedeutet 'the window is closed' in der Anleitung?")).toEqual(['bedeutet', 'window', 'closed', 'der', 'anleitung']);
    // One word alone tells no language ("die" is English too): its words stay.
    expect(terms('Wie lange dauert die Rückerstattung?')).toEqual(['wie', 'lange', 'dauert', 'die', 'rückerstattung']);
    // As many French words as English ones: English, as ever.
    expect(terms("What is c'est la vie?")).toEqual(['c', 'est', 'la', 'vie']);
    // An English stop word of that language's own list ("no", "me", "a") does not speak against it.
    expect(terms('¿Me puedes decir a qué hora abre la tienda? No lo encuentro.')).toEqual(['puedes', 'decir', 'hora', 'abre', 'tienda', 'encuentro']);
    // Written as acronyms, its words tell nothing: "ES", "MIT".
    expect(terms('ES und MIT')).toEqual(['es', 'und', 'mit']);
    expect(terms('es und mit')).toEqual([]);
    // A text all in capitals reads as written in either case.
    expect(terms('WIE LANGE DAUERT EINE RÜCKERSTATTUNG FÜR DEN ARTIKEL?')).toEqual(terms('Wie lange dauert eine Rückerstattung für den Artikel?'));
    // Short Italian, whose "io" and "chi" tell it.
    expect(terms('Io ho pagato ma chi mi rimborsa?')).toEqual(['pagato', 'rimborsa']);
    // "Without" is no stop word, as in English: with and without are two questions.
    for (const [withIt, without] of [
      ['¿Cuánto cuesta el envío con seguro?', '¿Cuánto cuesta el envío sin seguro?'],
      ['Combien coûte la livraison avec assurance ?', 'Combien coûte la livraison sans assurance ?'],
      ['Quanto custa o envio com seguro? É para o Porto', 'Quanto custa o envio sem seguro? É para o Porto'],
    ] as const)
      expect(queryKey(without), without).not.toBe(queryKey(withIt));
  });
});
