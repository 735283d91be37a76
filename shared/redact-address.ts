/**
 * Postal address redaction, run by the collector after the PII detectors, before anything is
 * stored. The widget leaves it out: its patterns cost about 1 KB minified and brotli-compressed,
 * more than the full widget's size budget has left. Conservative by design: a place name alone is
 * not an address.
 */
import { type Detector, PII_DETECTORS, redactWith } from './redact.ts';

/**
 * A numbered part of a Chinese address after the street: building, unit, floor or room ("12号楼",
 * "3单元", "502室"), or a bare room number after a unit or building ("3单元502", "5栋1202") when nothing Han or numeric follows.
 */
const CN_ADDRESS_PART = String.raw`\d{1,5}(?:号楼|单元|[栋幢层楼室号]|(?<=[元栋幢楼]\d+)(?![\d\u4e00-\u9fff]))`;

/**
 * A Chinese address: a street and its number ("建国路88号") with the Han text before it (province,
 * city, district), then any numbered parts; or two numbered parts at least ("5栋1202室"). A place
 * alone (北京市, 朝阳区) or one part alone ("第3单元", "3楼", "3室2厅") is not one. Han text has no
 * spaces: the address starts after the word that introduces it (是, 在, 到, 住, 地址…). A street
 * ends in 路, 街, 巷, 弄, 胡同 or 大道, not any 道 ("知道3号" is a date).
 */
const CN_ADDRESS = new RegExp(
  String.raw`(?:(?![是在的于到往为住址从])[\u4e00-\u9fff]){1,16}(?:[路街巷弄]|大道|胡同)\d{1,5}(?:-\d{1,4})?[号弄]院?(?:${CN_ADDRESS_PART}){0,4}` +
    String.raw`|(?<!\d)(?:${CN_ADDRESS_PART}){2,5}`,
  'g',
);

/**
 * A street suffix, a dot only after an abbreviation; not the start of a longer word ("Streets",
 * "Roadmap", "Loops"). The USPS suffixes most streets of the US end in; its rarer ones (Walk, Row,
 * Park, Hill, View…) are left out, as often a name's last word ("Apollo 11 Moon Walk"), and so are
 * those a question about software or numbers names as often (Run, Point, Path, Pass, Trace, Square,
 * Bend: "Java 8 Stack Trace", "Top 10 Data Point").
 */
const STREET_SUFFIX = String.raw`(?:Street|Avenue|Road|Boulevard|Parkway|Lane|Drive|Court|Place|Terrace|Circle|Highway|Way|Loop|Trail|Cove|Crossing|Ridge|Hollow|Pike|Alley|Plaza|Expressway|Freeway|Turnpike|(?:St|Ave|Rd|Blvd|Pkwy|Ln|Dr|Ct|Pl|Hwy|Cir|Ter|Trl|Cv|Xing|Rdg|Holw|Aly|Plz|Expy|Fwy|Tpke)\.?)(?![a-z])`;

/**
 * A house number ("221B", a range "12-14", a half "221 1/2"), one to four capitalized words or
 * ordinals ("5th"), a street suffix and any quadrant ("1600 Pennsylvania Avenue NW"). A number's
 * last part is none: of a version, a decimal or a time after a dot or colon ("Python 3.12 Event
 * Loop", "at 10:30 Main Street"), of a date after a dash or slash ("on 15/01/2024 Main Street").
 * Without the `i` flag the words must be capitalized; with it (where other evidence says it is an
 * address) any case goes. No house number, no address: "turn left at 5th street" names a street,
 * as "北京市" names a place, and locates nobody.
 */
const US_STREET = String.raw`(?<!\d[-./:])\b\d{1,6}[A-Z]?(?:-\d{1,6}[A-Z]?| 1/2)?(?: (?:[A-Z][a-z]{0,24}|\d{1,3}(?:st|nd|rd|th))\.?){1,4} ${STREET_SUFFIX}(?: [NS][EW]\b)?`;
const US_UNIT = String.raw`,? (?:Apt|Suite|Unit|#) ?[\w-]{1,6}`;
const US_CITY_NAME = ' [A-Z][a-z]{1,24}(?: [A-Z][a-z]{1,24}){0,2},? ';
const US_CITY = `,?${US_CITY_NAME}`;
const US_ZIP = String.raw`\d{5}(?:-\d{4})?`;

/** USPS codes of the states, DC and the territories: in any case, only these two letters read as a state. */
const US_STATE = '(?:A[KLRSZ]|C[AOT]|D[CE]|FL|G[AU]|HI|I[ADLN]|K[SY]|LA|M[ADEINOPST]|N[CDEHJMVY]|O[HKR]|P[AR]|RI|S[CD]|T[NX]|UT|V[AIT]|W[AIVY])';

/**
 * What introduces an address in any case: "my address is", "I live at", "I'm at", "meet me at",
 * "pick us up from", "ship it to", "deliver to". Where someone is, not where something is ("the
 * shop is at").
 */
const ADDRESS_CUE = String.raw`\b(?:address(?: is:?|:)|(?:live[sd]?|living|reside[sd]?|staying|(?:i'?m|i am|we'?re|we are)) at|(?:meet|find|visit|pick) (?:me|us)(?: up)? (?:at|from)|(?:ship(?:ped)?|deliver(?:ed)?|send|sent|mail(?:ed)?)(?: (?:it|them))? to) `;

/**
 * A US address in any case ("742 evergreen terrace, springfield, il 62704") where the evidence is
 * strong: after a cue, with any apartment, and a city and state after a comma or before a ZIP (so
 * "…Street come get me" does not read "me" as Maine); or, without a cue, followed by a city, a real
 * state code and a ZIP. Lower-case prose ("3 blocks down the road") has neither.
 */
const US_ADDRESS_ANY_CASE = new RegExp(
  String.raw`(?<=${ADDRESS_CUE})${US_STREET}(?:${US_UNIT})?(?:(?:,${US_CITY_NAME}${US_STATE}(?: ${US_ZIP})?|${US_CITY}${US_STATE} ${US_ZIP})\b)?` +
    String.raw`|${US_STREET}(?:${US_UNIT})?${US_CITY}${US_STATE} ${US_ZIP}\b`,
  'gi',
);

/**
 * Words that may follow an address in a sentence ("1600 Pennsylvania Avenue is…", "…Street and
 * then…"): function words and a few adverbs. Any other lower-case word makes the suffix part of a
 * name ("2 Google Drive accounts", "9 Supreme Court justices", "5 Wall Street banks").
 */
const FUNCTION_WORDS =
  "a|an|the|and|or|but|so|then|than|as|at|in|on|of|off|by|for|from|to|into|with|without|near|next|past|via|across|behind|around|between|opposite|until|after|before|since|because|if|when|where|which|that|who|whose|while|though|although|is|isn't|was|wasn't|are|were|be|been|has|had|have|will|would|can|could|should|may|might|must|do|does|doesn't|did|didn't|i|you|he|she|it|we|they|me|him|her|us|them|my|your|his|its|our|their|this|these|those|there|here|now|today|tonight|tomorrow|yesterday|please|thanks|too|also|again|instead|not|just|only|still|already|anymore|last|yet";
const MAY_FOLLOW_ADDRESS = String.raw`(?:${FUNCTION_WORDS})\b`;

/**
 * A product's name and version before a name ending in Loop, Drive or Way, as software's do
 * ("iOS 17 Safari Way", "Apple macOS 14 Finder Loop"): no address, when the product's name starts
 * lower case with a capital in it, as no city's or person's does. A capitalized word before the
 * number is read as a city's or a person's ("Austin 4 Privet Drive", "John Smith 4 Privet Drive"):
 * a product named so ("Windows 10 Event Loop", "Office 365 Team Drive") is kept by its thing's
 * name (THING), and an address leaking costs more than a product redacted.
 */
const PRODUCT_VERSION = String.raw`(?<=\b[a-z]{1,8}[A-Z]\w{0,24} )\d{1,6}(?: [A-Z]\w{0,24}){1,4} (?:Loop|Drive|Way)\b`;

/**
 * Names of things that end in a street suffix, and no street's: a count or a product's version
 * before one is no house number ("my 3 Hard Drive", "Microsoft Windows 10 Main Loop", "Top 10 Best
 * Way"). Each suffix has its own words: Main Loop is software's, while Main Drive may be a street.
 * Words a street is named after are left out (Milky Way, State Drive).
 */
const THING_LOOP =
  'Event|Main|Game|Render|Run|Message|Infinite|Inner|Outer|Nested|Control|Feedback|Training|Retry|Polling|Update|Draw|Input|Animation|Audio|Agent|Physics|Busy|Eval';
const THING_DRIVE = 'Hard|Flash|Disk|Thumb|Pen|Zip|Floppy|Tape|Optical|Team|Shared|Network|External|Internal|Cloud|Google|Backup|System|Boot|Test';
const THING_WAY = 'Best|Only|Right|Wrong|Easiest|Fastest|Simplest|Other|Same|One|Two';
const THING = String.raw`\b(?:(?:${THING_LOOP}) Loop|(?:${THING_DRIVE}) Drive|(?:${THING_WAY}) Way)`;

/**
 * Words that number a part of a text, a course, a show or a game, in either case ("Step 2",
 * "chapter 3", "Fig. 4", "Season 2", "Level 3"): the number after one is that part's, no house
 * number ("Step 2 Pine Way", "Chapter 3 Abbey Road"). Not the parts of a building (Unit, Suite,
 * Floor), which an address may start with, nor words that are also names (Page, Day), read as a
 * person's.
 */
const PART_WORD =
  String.raw`Step|Stage|Phase|Part|Chapter|Section|Lesson|Module|Exercise|Question|Task|Figure|Fig\.?|Table|Appendix|Slide|Episode|Season|Volume|Vol\.?|Track|Level|Item|Tip|Option|Example|Method`
    // Either case of each initial.
    .replace(/\b[A-Z]/g, (initial) => `[${initial}${initial.toLowerCase()}]`);
/** A part word and the space before its number. */
const PART = String.raw`\b(?:${PART_WORD}) `;

/**
 * A capitalized US address ("1600 Pennsylvania Avenue", "12 Main St."), then optionally an
 * apartment or suite and "City, ST 12345". One with neither is an address only if the sentence
 * does not go on with a lower-case word that would make the suffix part of a name, nor is it a
 * product's name and version, a thing's name or a part's number; a number before a word with no
 * street name ("Section 2 Road safety", "Route 66") is not one either.
 */
const US_ADDRESS_CAPITALIZED = new RegExp(
  String.raw`${US_STREET}(?:${US_UNIT}(?:${US_CITY}[A-Z]{2}(?: ${US_ZIP})?\b)?|${US_CITY}[A-Z]{2}(?: ${US_ZIP})?\b)` +
    String.raw`|(?!${PRODUCT_VERSION})(?<!${PART})${US_STREET}(?<!${THING})(?!\.? (?!${MAY_FOLLOW_ADDRESS})[a-z])`,
  'g',
);

// After the PII detectors: a phone number written after an address is already its placeholder,
// not read as a room number. Any case before capitalized, so an address with a lower-case city
// goes whole, not its street alone. Every repeat is bounded, so a long run of Han characters or
// digits costs linear time (npm run bench -- redact).
const DETECTORS: Detector[] = [
  ...PII_DETECTORS,
  { kind: 'address', pattern: CN_ADDRESS },
  { kind: 'address', pattern: US_ADDRESS_ANY_CASE },
  { kind: 'address', pattern: US_ADDRESS_CAPITALIZED },
];

/** Replaces PII as redactPII does, and postal addresses with `[ADDRESS]`: what the collector stores. */
export const redactPIIAndAddresses = (text: string): string => redactWith(text, DETECTORS);
