import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cnIdValid, luhnValid, redactPII } from './redact.ts';

/** [input, expected]: every PII kind in context, then near-misses that must come out untouched. */
const redacted: [string, string][] = [
  ['mail ann.lee+rag@example.co.uk now', 'mail [EMAIL] now'],
  ['联系 zhang_san@qq.com 谢谢', '联系 [EMAIL] 谢谢'],
  ['call +1 (415) 555-2671 today', 'call [PHONE] today'],
  ['ring +44 20 7946 0958', 'ring [PHONE]'],
  ['+8613812345678', '[PHONE]'],
  ['手机 13812345678，谢谢', '手机 [PHONE]，谢谢'],
  ['手机 138-1234-5678', '手机 [PHONE]'],
  ['call 13812345678 bye', 'call [PHONE] bye'],
  ['mobile +86 139 1234 5678', 'mobile [PHONE]'],
  ['office (415) 555-2671', 'office [PHONE]'],
  ['office 415-555-2671', 'office [PHONE]'],
  // North American numbers ending a sentence, and with the country's leading 1.
  ['call me at 415-555-2671.', 'call me at [PHONE].'],
  ['(415) 555-2671.', '[PHONE].'],
  ['Call 415.555.2671. Thanks', 'Call [PHONE]. Thanks'],
  ['call me at 1-800-555-0199', 'call me at [PHONE]'],
  ['or 1 (800) 555-0199, or 1.800.555.0199.', 'or [PHONE], or [PHONE].'],
  ['call +1-800-555-0199.', 'call [PHONE].'],
  // An extension written against the number: the number goes whole, the extension stays.
  ['call 415-555-2671x12 today', 'call [PHONE]x12 today'],
  ['call +1-415-555-2671x123.', 'call [PHONE]x123.'],
  ['ring +44 20 7946 0958x2', 'ring [PHONE]x2'],
  ['card 4111 1111 1111 1111 exp 12/29', 'card [CARD] exp 12/29'],
  ['card 4111-1111-1111-1111', 'card [CARD]'],
  ['amex 378282246310005', 'amex [CARD]'],
  ['uatp 135412345678911', 'uatp [CARD]'],
  ['身份证 11010519491231002X', '身份证 [CN_ID]'],
  ['id 440304199001011233 ok', 'id [CN_ID] ok'],
  ['id 32010619851231456x.', 'id [CN_ID].'],
  ['ssn 123-45-6789', 'ssn [SSN]'],
  ['from 192.168.1.20 and 8.8.8.8', 'from [IP] and [IP]'],
  ['v6 2001:db8::8a2e:370:7334 end', 'v6 [IP] end'],
  ['full 2001:0db8:85a3:0000:0000:8a2e:0370:7334', 'full [IP]'],
  ['to 2001:db8::1 and fe80::1ff:fe23:4567:890a', 'to [IP] and [IP]'],
  ['from 192.168.1.20:8080 and 10.0.0.1, not 127.0.0.1', 'from [IP]:8080 and [IP], not 127.0.0.1'],
  // An IPv4 address beside a version, or after a version word that does not lead to it, still goes.
  ['my IP is 192.168.1.20 since I upgraded to 10.2.0.1', 'my IP is [IP] since I upgraded to 10.2.0.1'],
  ['build 4.18.2.3: server 10.0.0.1 refused', 'build 4.18.2.3: server [IP] refused'],
  ['Version 1.2.3.4 of the build server 10.0.0.1, updated the router to 10.0.0.2', 'Version 1.2.3.4 of the build server [IP], updated the router to [IP]'],
  // A list of versions ends where a word other than "and", "or" or "to" comes.
  ['versions 1.2.3.4, 1.2.3.5 on server 10.0.0.1 and 10.0.0.2', 'versions 1.2.3.4, 1.2.3.5 on server [IP] and [IP]'],
  // No version has a port or a network's prefix length: four numbers with one are an address, after a version word too.
  ['updated to 10.0.0.5:8080, version 1.2.3.4 and 1.2.3.5:443', 'updated to [IP]:8080, version 1.2.3.4 and [IP]:443'],
  // However many digits the address's last number has, and at a sentence's end.
  ['updated to 192.168.1.20:8080, upgraded to 203.0.113.70/32.', 'updated to [IP]:8080, upgraded to [IP]/32.'],
  ['version 1.2.3.4 and 1.2.3.50:443', 'version 1.2.3.4 and [IP]:443'],
  ['upgraded to 203.0.113.7/32', 'upgraded to [IP]/32'],
  // An address after a version in a list is not another version of it.
  ['version 1.2.3.4 and 192.168.1.20 leaked', 'version 1.2.3.4 and [IP] leaked'],
  ['updated to 2.3.4.5, 10.20.30.40 is the new server', 'updated to 2.3.4.5, [IP] is the new server'],
  // NAT64 addresses (64:ff9b::…) hold someone's IPv4 address; an IPv4 address written in an IPv6 one goes with it.
  ['via 64:ff9b::c000:201 or 64:ff9b::192.0.2.1, and 2001:db8::10.0.0.1.', 'via [IP] or [IP], and [IP].'],
  // An IPv4 address mapped into IPv6 (::ffff:…), however it is spelled, goes whole.
  ['mapped ::ffff:192.168.1.20 or ::ffff:c0a8:114, ::FFFF:C0A8:0114', 'mapped [IP] or [IP], [IP]'],
  ['in full 0:0:0:0:0:ffff:c0a8:114, translated [::ffff:0:c0a8:114]:443', 'in full [IP], translated [[IP]]:443'],
  // Unless the IPv4 rule keeps it: this machine, any address, the broadcast one.
  [
    '::ffff:127.0.0.1, ::ffff:7f00:1, ::ffff:0.0.0.0, ::ffff:255.255.255.255 but ::ffff:1.2.3.4 or ::ffff:10.0.0.1',
    '::ffff:127.0.0.1, ::ffff:7f00:1, ::ffff:0.0.0.0, ::ffff:255.255.255.255 but [IP] or [IP]',
  ],
  // 7.250.1.2 and 15.250.1.2 are someone's: their first group has three digits (7fa, ffa), not four.
  ['::ffff:7fa:102, ::ffff:7.250.1.2 and ::ffff:ffa:102', '[IP], [IP] and [IP]'],
  // So does one in the deprecated "compatible" form, after "::" alone, however it is spelled.
  ['from ::192.168.1.20 or ::c0a8:114, [::C0A8:0114]:443 and 0:0:0:0:0:0:c0a8:114', 'from [IP] or [IP], [[IP]]:443 and [IP]'],
  // A link-local address before its zone, and a network's prefix, before its length too.
  ['gateway fe80::1%eth0, prefix 2001:db8:: and 2001:db8::/32', 'gateway [IP]%eth0, prefix [IP] and [IP]/32'],
  ['a@b.io, 13912345678 & 4111111111111111', '[EMAIL], [PHONE] & [CARD]'],
  // A card followed by its expiry or security code: only the card goes.
  ['card 4111 1111 1111 1111 12/26', 'card [CARD] 12/26'],
  ['card 4111111111111111 123 ok', 'card [CARD] 123 ok'],
  // Addresses with letters beyond ASCII, and one written against Chinese text.
  ['mail josé@example.com', 'mail [EMAIL]'],
  ['an Müller.jörg@firma.de bitte', 'an [EMAIL] bitte'],
  ['联系zhang@qq.com谢谢', '联系[EMAIL]谢谢'],
  // Vietnamese letters (Latin Extended Additional), and accents typed as combining marks (NFD).
  ['gửi nguyễn.văn@gmail.com nhé', 'gửi [EMAIL] nhé'],
  ['mail a@tiếng.vn', 'mail [EMAIL]'],
  ['mail jose\u0301@example.com', 'mail [EMAIL]'],
  // An apostrophe inside the local part (O'Brien), as typed or as a phone's keyboard curls it; quotes around the address stay.
  ["mail o'brien@example.ie today", 'mail [EMAIL] today'],
  ["from d'angelo.o'neil@example.com", 'from [EMAIL]'],
  ['mail o\u2019brien@example.ie', 'mail [EMAIL]'],
  ["write to 'ann@example.com' or \u2018bo@example.com\u2019", "write to '[EMAIL]' or \u2018[EMAIL]\u2019"],
  // An address before a file's extension is still one, as is one at a domain whose name has a number and an x.
  ['see ann@example.com.png', 'see [EMAIL]'],
  ['mail ann@pics.zip or bo@2xl.com, bo@x2.com', 'mail [EMAIL] or [EMAIL], [EMAIL]'],
  // In markdown's italics, which take the underscore before it into the address.
  ['write to _ann@example.com_ today', 'write to [EMAIL]_ today'],
  // Pasted with no-break spaces (U+00A0, U+202F) between the groups; those around the number stay as typed.
  ['card 4111\u00a01111\u00a01111\u00a01111 was charged', 'card [CARD] was charged'],
  ['card 4111\u00a01111\u00a01111\u00a01111\u00a012/26', 'card [CARD]\u00a012/26'],
  ['ring +44\u00a020\u00a07946\u00a00958\u00a0today', 'ring [PHONE]\u00a0today'],
  ['appelez le +33\u202f1\u202f23\u202f45\u202f67\u202f89', 'appelez le [PHONE]'],
  ['手机\u00a0138\u00a01234\u00a05678', '手机\u00a0[PHONE]'],
  // Typed in an IME's full-width mode; full-width digits elsewhere stay as typed.
  ['我的手机号是１３８００１３８０００', '我的手机号是[PHONE]'],
  ['手机 +８６ １３９ １２３４ ５６７８', '手机 [PHONE]'],
  ['卡号４１１１１１１１１１１１１１１１，共３张', '卡号[CARD]，共３张'],
  ['身份证 １１０１０５１９４９１２３１００２X', '身份证 [CN_ID]'],
  ['身份证 １１０１０５１９４９１２３１００２Ｘ', '身份证 [CN_ID]'],
  ['手机 ＋８６ １３９－１２３４－５６７８', '手机 [PHONE]'],
  // Grouped with the full-width space (U+3000) that mode types; the one before the number stays.
  ['卡号４１１１\u3000１１１１\u3000１１１１\u3000１１１１', '卡号[CARD]'],
  ['手机\u3000＋８６\u3000１３９\u3000１２３４\u3000５６７８', '手机\u3000[PHONE]'],
];

const untouched: string[] = [
  'the meeting is on 2024-01-15 at 12:30:45',
  'dated 15/01/2024 or 01.15.2024',
  'upgrade to v1.2.3 or 10.4.12 (build 2024.11.29)',
  'order ORD-2024-0001234 and #100234556',
  'order number 4111111111111112', // fails Luhn
  'pi is 3.14159 and the total is 1234567.89',
  'invoice 110105194912310022', // ID checksum wrong
  'serial 000-12-3456 is not an SSN', // area 000 is never issued
  'nor 666-12-3456, 912-34-5678, 123-00-4567 or 123-45-0000', // nor area 666 or 900-999, group 00, serial 0000
  'ratio 1:2:3 and time 09:45',
  // Code, not an address: a Haskell type, a path of one-letter names, C++ at the start of a scope.
  'f :: Int -> Int',
  'use a::b, not ::c',
  'C++:: and ::',
  // Python slices, and code of hex letters alone.
  'x[::10], y[::-1], s[1::2] and ab::cd, fe::ed',
  // The NAT64 prefix alone is everyone's.
  'the NAT64 prefix 64:ff9b::/96',
  // This machine in IPv6, however it is spelled.
  'ping ::1, [::1]:8080, 0:0:0:0:0:0:0:1 or 0000:0000:0000:0000:0000:0000:0000:0001',
  // The IPv4 addresses kept below, in the compatible form: this machine, any address, the broadcast one.
  'ping ::127.0.0.1 or ::7f00:1, ::0.1.2.3 or ::1:203, ::255.255.255.255 or ::ffff:ffff',
  // This machine, any address and netmasks: no one's.
  'listen on 0.0.0.0:8080, db at 127.0.0.1:5432, mask 255.255.255.0 or 255.255.0.0',
  'the number 12345678 alone',
  'price ¥1,234,567.00',
  'version 1.2.3.4-beta',
  // Four numbers right after a version word are a version, as is one written against a "v".
  'upgraded to 10.2.0.1 from v1.2.3.4',
  'build 4.18.2.3 failed',
  'Version: 10.2.0.1, updating to 10.2.0.2',
  'Upgrade to 2.0.0.1 and release 3.4.5.6, ver 1.0.0.12',
  // Every number of a list of versions is one.
  'upgraded from 1.2.3.4 to 1.2.3.5, versions 1.2.3.4, 1.2.3.5 and 1.2.3.6, version 2.0.0.1 or 2.0.0.2',
  'version 10.0.0.5 and 10.0.0.7, build 4.18.2.3: fixed',
  'tracking 1Z999AA10123456784',
  'ISBN 978-3-16-148410-0',
  'order 0012345678 and code 012345',
  'zip 02134, build 0.12.3 or 0.12.345678',
  'on 05-03-2024 14:00 and 05 03 2024 10:30',
  'order 0123456789, invoice 04-1234-5678, ISBN 0306406152',
  'IBAN DE89 3704 0044 0532 0130 00',
  'card 4111 1111 1111 1112 12', // no span of whole groups passes Luhn
  // Luhn-valid, but no card starts with 0, nor with 1 unless it has 15 digits (UATP): times in
  // epoch milliseconds and nanoseconds, a snowflake id.
  'createdAt 1733529600004 and 1733529600012, at 1733529600000000004',
  'tweet 1868373728384839688 or 0000000000000000',
  // Near-misses of a North American number: more groups, a longer or shorter one, or no token start.
  'version 415.555.2671.3 or 1.415.555.2671.8.',
  'build 10.415.555.2671 and part 415-555-26710.',
  'order 11-800-555-0199, ref A1-800-555-0199 and 1-800-555-019.',
  'shipped 2024-12-04. Order 1-2024-12-04.',
  'serial 415-555-2671-12 and 800.555.0199.5',
  'part 415-555-2671xl or 415-555-2671x',
  // A file's name with its pixel density (@2x, or @2X as some export it), whatever its extension.
  'use logo@2x.png, icon@2x.jpg and sprite@3x.webp',
  'use Badge@2X.PNG, icon@3X.jpg and hero@1.5X.jpeg',
  // Counts of bytes or nanoseconds of a mobile number's length.
  'read 15000000000 bytes in 13000000000 ns, 1 MB per 13500000000 ns',
  // Lists of HTTP status codes or ports: their digits together pass Luhn.
  'codes 404 503 500 200 301 302, ports 22 80 443 993 995 587 465',
  'hero@1.5x.jpeg, Badge@2x.PNG, arrow@2x.svg, anim@3x.gif, photo@2x.avif and clip@2x.mov (_logo@2x.png_)',
];

describe('redactPII', () => {
  it.each(redacted)('%s', (input, expected) => expect(redactPII(input)).toBe(expected));
  it.each(untouched)('leaves alone: %s', (input) => expect(redactPII(input)).toBe(input));
});

/** An IPv4 address as four numbers, the first one of `firsts`. */
const ipv4 = (firsts: fc.Arbitrary<number>) => fc.tuple(firsts, fc.nat(255), fc.nat(255), fc.nat(255));

/** Every way IPv6 writes an IPv4 address inside it: dotted or as two hex groups, with or without leading zeros, in either case. */
const ipv6Spellings = ([a, b, c, d]: number[], { padded, upper }: { padded: boolean; upper: boolean }): string[] => {
  const group = (n: number) => n.toString(16).padStart(padded ? 4 : 1, '0');
  const hex = `${group(a! * 256 + b!)}:${group(c! * 256 + d!)}`;
  const dotted = `${a}.${b}.${c}.${d}`;
  const forms = [`::ffff:${dotted}`, `::ffff:${hex}`, `0:0:0:0:0:ffff:${hex}`, `::${dotted}`, `::${hex}`, `0:0:0:0:0:0:${hex}`];
  return forms.map((form) => (upper ? form.toUpperCase() : form));
};
const spellingStyle = fc.record({ padded: fc.boolean(), upper: fc.boolean() });

describe('IPv4 addresses inside IPv6 ones', () => {
  it('go whole, however they are spelled', () => {
    const someones = fc.integer({ min: 1, max: 254 }).filter((a) => a !== 127);
    fc.assert(
      fc.property(ipv4(someones), spellingStyle, (address, style) => {
        for (const form of ipv6Spellings(address, style)) expect(redactPII(`from ${form} today`)).toBe('from [IP] today');
      }),
    );
  });
  it("stay when they are no one's: this machine, any address, the broadcast one", () => {
    fc.assert(
      fc.property(ipv4(fc.constantFrom(0, 127, 255)), spellingStyle, (address, style) => {
        for (const form of ipv6Spellings(address, style)) expect(redactPII(`from ${form} today`)).toBe(`from ${form} today`);
      }),
    );
  });
});

describe('checksums', () => {
  it('Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });
  it('Chinese resident ID', () => {
    expect(cnIdValid('11010519491231002X')).toBe(true);
    expect(cnIdValid('11010519491231002x')).toBe(true);
    expect(cnIdValid('110105194912310022')).toBe(false);
    expect(cnIdValid('110105194913310021')).toBe(false); // month 13
  });
});
