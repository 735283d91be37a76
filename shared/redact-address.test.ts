import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactPII } from './redact.ts';
import { redactPIIAndAddresses } from './redact-address.ts';

/** [input, expected]: addresses in context, Chinese then US, then near-misses that must come out untouched. */
const redacted: [string, string][] = [
  ['我的地址是北京市朝阳区建国路88号3单元502室', '我的地址是[ADDRESS]'],
  ['寄到上海市浦东新区世纪大道100号，谢谢', '寄到[ADDRESS]，谢谢'],
  ['住在淮海中路100弄5号302室', '住在[ADDRESS]'],
  ['地址：南锣鼓巷8号', '地址：[ADDRESS]'],
  ['他住建国路88-2号院12号楼3单元502', '他住[ADDRESS]'],
  // Without a street: two numbered parts, the last a bare room number after a unit or building.
  ['住在阳光花园5栋1202室，谢谢', '住在阳光花园[ADDRESS]，谢谢'],
  ['12号楼3单元502，快递放门口', '[ADDRESS]，快递放门口'],
  ['楼号 5栋1202', '楼号 [ADDRESS]'],
  // Typed in an IME's full-width mode.
  ['送到建国路８８号', '送到[ADDRESS]'],
  // A phone written after the address stays a phone.
  ['建国路88号3单元502室13812345678', '[ADDRESS][PHONE]'],
  ['1600 Amphitheatre Parkway, Mountain View, CA 94043', '[ADDRESS]'],
  ['ship to 350 5th Ave, Apt 4B, New York, NY 10118-0110 please', 'ship to [ADDRESS] please'],
  ['I live at 221B Baker Street.', 'I live at [ADDRESS].'],
  ['at 12 Elm Dr. Then left', 'at [ADDRESS] Then left'],
  ['send it to 742 Evergreen Terrace, Springfield, OR 97403 and call 415-555-2671', 'send it to [ADDRESS] and call [PHONE]'],
  ['office: 1 N. Main St, Suite 200', 'office: [ADDRESS]'],
  // Capitalized with nothing after: the sentence ends or goes on with a word that is not a noun.
  ['1600 Pennsylvania Avenue', '[ADDRESS]'],
  ['the White House is at 1600 Pennsylvania Avenue NW in Washington', 'the White House is at [ADDRESS] in Washington'],
  ['221B Baker Street was his home', '[ADDRESS] was his home'],
  ['350 Fifth Avenue, New York, NY 10118', '[ADDRESS]'],
  ['12 Main St.', '[ADDRESS]'],
  ['the shop at 12 Main St. is closed today', 'the shop at [ADDRESS] is closed today'],
  ['4 Privet Drive', '[ADDRESS]'],
  ['1 Microsoft Way, Redmond, WA 98052', '[ADDRESS]'],
  // The USPS suffixes most streets end in, written out or abbreviated.
  ['4512 Wildflower Loop, Austin, TX 78745', '[ADDRESS]'],
  ['ship to 88 Deer Trail please', 'ship to [ADDRESS] please'],
  ['12 Oak Trl. Then right', '[ADDRESS] Then right'],
  ['7 Maple Cir, Apt 2', '[ADDRESS]'],
  ['31 Spooner Ter', '[ADDRESS]'],
  ['5 Fox Cove is my home', '[ADDRESS] is my home'],
  ['90 Harbor Pike, Tampa, FL 33602', '[ADDRESS]'],
  ['deliver to 4 Mill Crossing, or 2 Elk Xing', 'deliver to [ADDRESS], or [ADDRESS]'],
  ['1 Union Alley and 6 Lake Plaza', '[ADDRESS] and [ADDRESS]'],
  ['8 Pine Hollow, 3 Stone Ridge, 9 Oak Cv', '[ADDRESS], [ADDRESS], [ADDRESS]'],
  ['my address is 12 deer trail', 'my address is [ADDRESS]'],
  // Any case after a cue, or with a city, a state and a ZIP.
  ['my address is 742 evergreen terrace, springfield, il 62704', 'my address is [ADDRESS]'],
  ['742 evergreen terrace springfield il 62704 is my home', '[ADDRESS] is my home'],
  ['742 Evergreen Terrace, springfield, il 62704', '[ADDRESS]'],
  ['please deliver to 12 main st apt 4b tomorrow', 'please deliver to [ADDRESS] tomorrow'],
  ['i live at 221b baker street, thanks', 'i live at [ADDRESS], thanks'],
  ['Ship it to 350 5th ave, new york, ny', 'Ship it to [ADDRESS]'],
  ['Address: 10 downing street', 'Address: [ADDRESS]'],
  // A cue outweighs the word after it.
  ['deliver to 5 Wall Street reception', 'deliver to [ADDRESS] reception'],
  ["I'm at 12 Main Street come get me", "I'm at [ADDRESS] come get me"],
  ['we are at 40 Elm Road waiting', 'we are at [ADDRESS] waiting'],
  // A state code needs a comma before its city or a ZIP after it: "me" is not Maine here.
  ["i'm at 12 main st come get me", "i'm at [ADDRESS] come get me"],
  ['pick me up from 9 Harbor Lane tonight', 'pick me up from [ADDRESS] tonight'],
  ['Meet us at 5 Wall Street lobby', 'Meet us at [ADDRESS] lobby'],
  // A product's name and version is no address, while one opened by a function word or a verb is.
  ['Windows 10 Event Loop is slow. I live at 10 Downing Street', 'Windows 10 Event Loop is slow. I live at [ADDRESS]'],
  ['Python 3 Event Loop: send it to 221 Baker Street', 'Python 3 Event Loop: send it to [ADDRESS]'],
  ['Office 365 Team Drive. At 10 Downing Street, Visit 221B Baker Street', 'Office 365 Team Drive. At [ADDRESS], Visit [ADDRESS]'],
  // The last part of a time, a version or a date is no house number; a number standing alone still is.
  ['the bus leaves 10:30 Main Street, or at 12:30 from 12 Main Street', 'the bus leaves 10:30 Main Street, or at 12:30 from [ADDRESS]'],
  ['Python 3.12 Event Loop is slow at 4 Privet Drive', 'Python 3.12 Event Loop is slow at [ADDRESS]'],
  ['on 15/01/2024 Main Street was shut, so ship to 12-14 Main Street', 'on 15/01/2024 Main Street was shut, so ship to [ADDRESS]'],
  // A house number of a range or with a half goes whole.
  ['I live at 221 1/2 Baker Street, and 12B-14B Elm Road is hers', 'I live at [ADDRESS], and [ADDRESS] is hers'],
  // A person's name before the number is no product's: a capitalized word before it says so.
  ['Windows 10 Event Loop; ship to John Smith 12 Main Street', 'Windows 10 Event Loop; ship to John Smith [ADDRESS]'],
  ['Office 365 Team Drive is full; Mr. Smith 12 Main Street', 'Office 365 Team Drive is full; Mr. Smith [ADDRESS]'],
  // With an apartment, a city or a state, a name before the number does not keep the address.
  ['Windows 10 Event Loop; John Smith 12 Main St, Apt 4', 'Windows 10 Event Loop; John Smith [ADDRESS]'],
  // Only a product's name ends in Loop, Drive or Way; before a Street, Road or Terrace, a capitalized word is a city's.
  ['Boston 12 Main Street', 'Boston [ADDRESS]'],
  ['from Springfield 742 Evergreen Terrace, Austin 88 Deer Trail', 'from Springfield [ADDRESS], Austin [ADDRESS]'],
  // Before a name ending in Loop, Drive or Way too, unless the name is a thing's: a capitalized word is written as a city's or a person's.
  ['Austin 4 Privet Drive', 'Austin [ADDRESS]'],
  ['Seattle 12 Pine Way is hers, Tampa 9 Deer Loop his', 'Seattle [ADDRESS] is hers, Tampa [ADDRESS] his'],
  ['McKinney 4 Privet Drive', 'McKinney [ADDRESS]'],
  // The number of a part of a building, after a sentence's end, or before a city and state is a house number.
  ['Unit 2 Pine Way', 'Unit [ADDRESS]'],
  ['that was the last step. 2 Pine Way is my home', 'that was the last step. [ADDRESS] is my home'],
  ['Step 2 Pine Way, Springfield, IL 62704', 'Step [ADDRESS]'],
];

const untouched: string[] = [
  '北京市',
  '朝阳区的天气怎么样',
  '我住在北京市朝阳区',
  '请学习第3单元20道题',
  '两套3室2厅的房子',
  '会议在3楼',
  '我知道3号的会议改期了',
  '地铁3号线到建国门',
  '2024年3月5号到期',
  'Route 66',
  'shipping takes 3 days',
  'Section 2 Road safety',
  'walk 3 blocks down the road',
  '3 blocks down the road',
  // A street suffix inside a name, a noun after it.
  'I have 2 Google Drive accounts',
  'I have 2 Google Drive accounts at work',
  'the 9 Supreme Court justices',
  '5 Wall Street banks failed',
  'the 5 Wall Street banks are at 2 Google Drive accounts',
  "I'm at 3 different companies",
  'I read 12 Main St. articles',
  // Lower case without a cue or a ZIP; a street without a house number.
  'we passed 12 main street on the way',
  'turn left at 5th street',
  'I live on 5th street',
  'Section 2 of the highway, exit at 12345',
  'the 3 Main Streets of the town',
  'version 2 of the Roadmap',
  // The new suffixes in ordinary sentences: no house number before a capitalized name, or a noun after.
  'the feedback loop keeps a paper trail',
  'The Feedback Loop and the Paper Trail',
  'we ran 3 loops along the trail, then 2 more laps of the loop',
  'Step 2 Run the tests',
  // The number of a step, a chapter, a figure, a season or a level before a name ending in a street suffix.
  'Step 2 Pine Way',
  'in step 2 Pine Way is wrong, see Chapter 3 Abbey Road.',
  'Fig. 4 Main Street and figure 5 Elm Drive, Season 2 Coronation Street, Level 3 Rainbow Road',
  'I have 2 Boarding Pass copies',
  'we did 5 Dry Run tests on 3 Data Point values',
  'a 3 Point plan for 2 Loops',
  // Suffixes of streets that software and numbers name as often are none.
  'the Java 8 Stack Trace is long',
  'Top 10 Data Point is here',
  'the 2 Critical Path is late',
  'we met at 1 Union Square today',
  // A capitalized product's name before its version, then a name ending in a street suffix.
  'Windows 10 Event Loop is slow',
  'I upgraded to Windows 10 Event Loop',
  'With Windows 10 Event Loop it is slow',
  'the Office 365 Team Drive is full, and iOS 17 Safari Way too',
  // A product's name starting lower case, as no place's or person's does, after another word too.
  'Apple iOS 17 Safari Way and macOS 14 Finder Loop',
  // A thing's name ending in a street suffix, after a vendor's name or a count.
  'Microsoft Windows 10 Event Loop',
  'Microsoft Windows 10 Event Loop is slow',
  'my 3 Hard Drive',
  'our 2 Team Drive and my 4 Flash Drive',
  'Microsoft Windows 10 Main Loop, Windows 11 Network Drive is full',
  'my 2 External Drive, the 3 Google Drive and the Top 10 Best Way',
  'Node 20 Render Loop or Unity 6 Game Loop, Chrome 120 Cloud Drive',
  // The last part of a version, a decimal, a time or a date before a name ending in a suffix.
  'Python 3.12 Event Loop is slow, as is v2.1 Event Loop',
  'the bus leaves 10:30 Main Street or 17.30 Baker Street',
  'since 2024-01-15 Main Street is shut, and since 01/15/2024 Baker Street is',
];

describe('redactPIIAndAddresses', () => {
  it.each(redacted)('%s', (input, expected) => expect(redactPIIAndAddresses(input)).toBe(expected));
  it.each(untouched)('leaves alone: %s', (input) => expect(redactPIIAndAddresses(input)).toBe(input));
  it("reads a part's number as no house number, and the same number alone as one", () => {
    const part = fc.constantFrom('Step', 'step', 'Chapter', 'section', 'Fig.', 'Figure', 'Season', 'episode', 'Level', 'Lesson', 'Part', 'Table');
    const street = fc.tuple(
      fc.integer({ min: 1, max: 99999 }),
      fc.constantFrom('Pine', 'Abbey', 'Main', 'Maple', 'Coronation', 'Rainbow', 'Silk', 'Baker', 'Cedar Hill'),
      fc.constantFrom('Way', 'Street', 'Road', 'Drive', 'Lane', 'Avenue', 'Court', 'Terrace', 'St', 'Rd'),
    );
    const after = fc.constantFrom('', ' is wrong', ', then', ' and the next');
    fc.assert(
      fc.property(part, street, after, (word, [number, name, suffix], tail) => {
        expect(redactPIIAndAddresses(`${word} ${number} ${name} ${suffix}${tail}`)).toBe(`${word} ${number} ${name} ${suffix}${tail}`);
        expect(redactPIIAndAddresses(`at ${number} ${name} ${suffix}${tail}`)).toBe(`at [ADDRESS]${tail}`);
      }),
    );
  });
  it('redacts PII as redactPII does', () => {
    const text = 'mail ann@example.com, 手机 13812345678, card 4111 1111 1111 1111';
    expect(redactPIIAndAddresses(text)).toBe(redactPII(text));
  });
});
