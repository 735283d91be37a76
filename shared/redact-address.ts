/**
 * Postal address redaction, run by the collector after the PII detectors, before anything is
 * stored. The widget leaves it out: its patterns cost about 0.3 KB brotli, more than the full
 * widget's size budget has left. Conservative by design: a place name alone is not an address.
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
 * A US street address: a house number, one to four capitalized words or ordinals ("5th"), a street
 * suffix (a dot only after an abbreviation), then optionally an apartment or suite and
 * "City, ST 12345". Written in lower case it is missed, so "3 blocks down the road" is not one;
 * neither is a number before a word with no street name ("Section 2 Road safety", "Route 66").
 */
const US_ADDRESS =
  /\b\d{1,6}[A-Z]?(?: (?:[A-Z][a-z]*|\d{1,3}(?:st|nd|rd|th))\.?){1,4} (?:Street|Avenue|Road|Boulevard|Parkway|Lane|Drive|Court|Place|Terrace|Circle|Highway|Way|(?:St|Ave|Rd|Blvd|Pkwy|Ln|Dr|Ct|Pl|Hwy)\.?)(?![a-z])(?:,? (?:Apt|Suite|Unit|#) ?[\w-]{1,6})?(?:,? [A-Z][a-z]+(?: [A-Z][a-z]+){0,2},? [A-Z]{2}(?: \d{5}(?:-\d{4})?)?\b)?/g;

// After the PII detectors: a phone number written after an address is already its placeholder,
// not read as a room number. Every repeat is bounded, so a long run of Han characters or digits
// costs linear time (npm run bench -- redact).
const DETECTORS: Detector[] = [...PII_DETECTORS, { kind: 'address', pattern: CN_ADDRESS }, { kind: 'address', pattern: US_ADDRESS }];

/** Replaces PII as redactPII does, and postal addresses with `[ADDRESS]`: what the collector stores. */
export const redactPIIAndAddresses = (text: string): string => redactWith(text, DETECTORS);
