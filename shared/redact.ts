/**
 * PII redaction for free text, run in the browser before an event is buffered and again in the
 * collector before anything is stored (which also redacts addresses: redact-address.ts). Each
 * detector finds candidates with a pattern and, where a checksum exists, confirms them, so that
 * order numbers, dates and versions stay untouched.
 */

/** The kinds of PII we replace, each with its placeholder: its name in capitals, e.g. `[CN_ID]`. */
export type PiiKind = 'email' | 'cn_id' | 'card' | 'ssn' | 'phone' | 'ip' | 'address';

const placeholder = (kind: PiiKind): string => `[${kind.toUpperCase()}]`;

export interface Detector {
  kind: PiiKind;
  pattern: RegExp;
  /** Confirms a candidate; without it every match is PII. */
  confirm?: (match: string) => boolean;
  /** Redacts within a candidate (`typed` is it as typed), for a detector that may find its PII in part of it. */
  replace?: (match: string, typed: string) => string;
}

/**
 * An e-mail address, its letters ASCII or Latin with diacritics (josé@…, jörg.müller@…, and
 * Vietnamese nguyễn@… from Latin Extended Additional), the accents precomposed or combining (U+0300
 * to U+036F, as text in NFD has them): not Han or kana, which are written without spaces, so the
 * sentence before an address is not taken into it. An apostrophe may join two of its letters
 * (o'brien@…, curled as a phone's keyboard types it), not start or end it: quotes around an address
 * stay, and no match starts after one joined to a letter (else "a'a'a'…" is read from every
 * letter). It ends with the letters of its TLD, whatever follows: an underscore, as markdown's
 * italics put one on either side (`_ann@example.com_`). A file's name with its pixel density
 * (logo@2x.png, hero@1.5x.jpeg, Badge@2X.PNG: "@", a number and "x." or "X.") is no address.
 */
const EMAIL = /(?<![-\w.+À-ͯḀ-ỿ]['’]?)[-\w.+À-ͯḀ-ỿ](?:['’]?[-\w.+À-ͯḀ-ỿ]){0,63}@(?![\d.]+[xX]\.)[-\wÀ-ͯḀ-ỿ]{1,63}(?:\.[-\wÀ-ͯḀ-ỿ]{1,63}){0,8}\.[a-zA-ZÀ-ͯḀ-ỿ]{2,24}/g;

const digitsOf = (s: string): string => s.replace(/\D/g, '');

/**
 * The text as the detectors read it: no-break spaces (U+00A0, U+202F, as pasted from web pages and
 * PDFs) as spaces, and full-width digits and spaces (U+3000: an IME's full-width mode types both)
 * as ASCII ones. One UTF-16 unit stands for one, so an offset in it is an offset in the text as typed.
 */
const plain = (s: string): string => s.replace(/[\xa0\u202f\u3000]/g, ' ').replace(/[＋－０-９Ｘｘ]/g, (c) => c.normalize('NFKC'));

/** Luhn checksum, used by every payment card network. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * A card number in a run of digit groups: the whole run, or the run without a last group of two
 * to four digits (an expiry month or security code written after it: "4111 1111 1111 1111 12/26").
 * No card network's numbers start with 0, nor with 1 but the airlines' 15-digit UATP cards: a
 * time in epoch milliseconds (13 digits from 1), micro- or nanoseconds, or a 19-digit snowflake id
 * passes Luhn one time in ten, and is kept. A card number starts with four digits together, however
 * it is grouped: a list of status codes or ports ("404 503 500 200 301 302") is none.
 */
function cardIn(run: string, typed: string): string {
  for (const span of [run, run.replace(/[ -]\d{2,4}$/, '')]) {
    const digits = digitsOf(span);
    if (digits.length > 12 && /^[2-9]|^1.{14}$/.test(digits) && luhnValid(digits)) return placeholder('card') + typed.slice(span.length);
  }
  return typed;
}

const CN_ID_CHECK = '10X98765432';

/** GB 11643 resident ID: a plausible birth date and the ISO 7064 MOD 11-2 check character. */
export function cnIdValid(id: string): boolean {
  const upper = id.toUpperCase();
  const month = Number(upper.slice(10, 12));
  const day = Number(upper.slice(12, 14));
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  let sum = 0;
  // ISO 7064 weighs the character i places from the check character by 2^i mod 11.
  for (let i = 0; i < 17; i++) sum += (upper.charCodeAt(i) - 48) * (2 ** (17 - i) % 11);
  return CN_ID_CHECK[sum % 11] === upper[17];
}

/**
 * Whether an IPv6 candidate is someone's address, read as the URL parser writes it: it refuses a
 * time such as 12:30:45 (fewer than eight groups and no "::"), and writes every spelling of an
 * address alike, in lower case without leading zeros. An address anyone is reached at starts with a
 * group of four hex digits (2001:…, fd12:…, fe80:…; none anyone is given starts with 0), or holds someone's IPv4 address: after NAT64's
 * 64:ff9b: (the prefix alone, "64:ff9b::", is everyone's), mapped after ::ffff:
 * (::ffff:192.168.1.20, 0:0:0:0:0:ffff:c0a8:114, both written ::ffff:c0a8:114) or in the deprecated
 * compatible form, two groups after "::" alone (::192.168.1.20, written ::c0a8:114; ::ffff:c0a8 is
 * 255.255.192.168 in it), unless it is one the IPv4 rule keeps (0.…, 127.…, 255.…, written
 * ::ffff:ab:cd, ::ffff:7fab:cd, ::ffff:ffab:cd, ::7fab:cd). "::", "a::b" and "ab::cd" are code
 * ("f :: Int", "use a::b"), "x[::10]" a Python slice, and "::1" this machine.
 */
function ipv6Valid(candidate: string): boolean {
  try {
    return /^\[(?:[\da-f]{4}:|64:ff9b:(?!:])|::(?:ffff:(?=\w+:)|(?=\w+:\w+]))(?!(?:(?:7f|ff)[\da-f]{2}|[\da-f]{1,2}):[\da-f]{1,4}\]))/.test(
      new URL(`http://[${candidate}]/`).host,
    );
  } catch {
    return false;
  }
}

const phoneDigitCountValid = (m: string): boolean => {
  const n = digitsOf(m).length;
  return n >= 8 && n <= 15;
};

// Order matters: longer, checksummed numbers first, so a card is not half-eaten as a phone.
// Every pattern starts where a token starts (a lookbehind) and bounds its repeats, so a long run
// of letters or digits costs linear time, not quadratic (100 KB of "aaaa…" must not take seconds).
export const PII_DETECTORS: Detector[] = [
  { kind: 'email', pattern: EMAIL },
  { kind: 'cn_id', pattern: /(?<![\w-])\d{6}(?:18|19|20)\d{9}[\dXx](?![\w-])/g, confirm: cnIdValid },
  {
    kind: 'card',
    pattern: /(?<![\w.+-])\d{4}(?:[ -]?\d){9,15}(?![\w-]|\.\d)/g,
    replace: cardIn,
  },
  // US SSN: area 000, 666 and 900-999, group 00 and serial 0000 are never issued.
  { kind: 'ssn', pattern: /(?<![\w-])(?!000|666|9)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])/g },
  // Chinese mobile: 1[3-9]x followed by 8 digits, optionally +86 and 3-4-4 grouping; not a count of
  // bytes or nanoseconds ("15000000000 bytes").
  { kind: 'phone', pattern: /(?<![\w+-])(?:\+?86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2}(?![\w-]| (?:bytes|ns)\b)/g },
  // International: a leading + and 8-15 digits in groups. A phone number may end in an extension
  // written against it ("…2671x12"): the number goes, the extension stays.
  {
    kind: 'phone',
    pattern: /(?<![\w+])\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,6}(?!(?!x\d)[\w-])/g,
    confirm: phoneDigitCountValid,
  },
  // North American, only in the usual punctuated shapes, with a leading 1 or without; ending a sentence too.
  { kind: 'phone', pattern: /(?<![\w.-])(?:1[-. ])?(?:\(\d{3}\) ?|\d{3}[-. ])\d{3}[-. ]\d{4}(?!(?!x\d)[\w-]|\.\d)/g },
  // IPv6 before IPv4, so an IPv4 address written in an IPv6 one ("64:ff9b::192.0.2.1") goes with it.
  { kind: 'ip', pattern: /(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{0,4})(?![\w:])/gi, confirm: ipv6Valid },
  // An IPv4 address, but not four numbers right after a version word, nor the others of their list
  // that share their first number ("versions 1.2.3.4, 1.2.3.5 and 1.2.3.6", "upgraded from 1.2.3.4
  // to 1.2.3.5"; "version 1.2.3.4 and 192.168.1.20" is an address): the first alternative, confirmed
  // never, keeps them, unless a port or a prefix length follows, as none follows a version ("updated
  // to 10.0.0.5:8080" is an address). "build 4.18.2.3", "Version: 10.2.0.1" are versions
  // (as "v1.2.3.4" is, which starts no token). Nor this machine (127.…), any address (0.0.0.0) or a
  // netmask (255.255.255.0): no one's.
  {
    kind: 'ip',
    pattern:
      /\b(?:ver(?:sion)?s?|build|release|up(?:dat|grad)\w* (?:to|from)):? (\d+)(?:\.\d+){3}(?:(?:,? (?:and|or|to)|,) \1(?:\.\d+){3}){0,9}\b(?!:\d|\/\d\d?(?!\.?\d))|(?<![\w.])(?!(?:0|127|255)\.)(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w-]|\.\d)/gi,
    confirm: (m) => /^\d/.test(m),
  },
];

/**
 * Replaces every PII match in `text` with its typed placeholder, e.g. `[EMAIL]`. Matches are found
 * in the text's plain form; everything else is kept as typed.
 */
export const redactPII = (text: string): string => redactWith(text, PII_DETECTORS);

/**
 * Runs `detectors` over `text` in order, each on the previous one's output. The plain form is made
 * once and kept beside the output (`read` is always `plain(out)`): made again for each detector,
 * 100 KB of full-width digits took a quarter of a second.
 */
export function redactWith(text: string, detectors: readonly Detector[]): string {
  let out = text;
  let read = plain(text);
  for (const { kind, pattern, confirm, replace } of detectors) {
    const typed = out;
    const plainTyped = read;
    let end = 0;
    out = read = '';
    for (const { 0: match, index } of plainTyped.matchAll(pattern)) {
      out += typed.slice(end, index);
      read += plainTyped.slice(end, index);
      const was = typed.slice(index, (end = index + match.length));
      const put = replace ? replace(match, was) : confirm && !confirm(match) ? was : placeholder(kind);
      out += put;
      read += plain(put);
    }
    out += typed.slice(end);
    read += plainTyped.slice(end);
  }
  return out;
}
