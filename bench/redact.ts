/**
 * PII redaction speed, as the collector redacts (PII and addresses): throughput on realistic chat
 * text, and the slowest of a set of adversarial 100 KB inputs (long runs that make careless
 * patterns backtrack quadratically).
 */
import { redactPIIAndAddresses } from '../shared/redact-address.ts';
import { type Row, row } from './stats.ts';

const RUNS = 5;
const sample =
  'My order ORD-2024-0001234 arrived on 2024-11-02 but the refund (¥1,234.50) never came. ' +
  'Email me at jane.doe@example.com or call +44 20 7946 0958 / 13812345678. 退款条件是什么？ ' +
  'Version 1.2.3 of the app shows card 4111 1111 1111 1111 and IP 192.168.1.20. ';
const realistic = sample.repeat(Math.ceil(1_000_000 / sample.length));
const adversarial = [
  'a',
  '1',
  'a.',
  '1 ',
  '+1 ',
  'a@',
  'a@b.',
  '1-',
  '1.',
  ':',
  'a1:',
  '1 A',
  '路',
  '路1',
  '1号',
  '1单元',
  '1 a ',
  '1 A Road ',
  'live at 1 a ',
  '1 a road, a, il ',
  // What the detectors read as ASCII: full-width digits and spaces, no-break spaces.
  '１',
  '\u3000',
  '1\u00a0',
].map((unit) => unit.repeat(Math.ceil(100_000 / unit.length)));

export async function redactBench(): Promise<Row[]> {
  const throughput: number[] = [];
  const worst: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let start = performance.now();
    redactPIIAndAddresses(realistic);
    throughput.push(realistic.length / 1e6 / ((performance.now() - start) / 1000));
    let slowest = 0;
    for (const text of adversarial) {
      start = performance.now();
      redactPIIAndAddresses(text);
      slowest = Math.max(slowest, performance.now() - start);
    }
    worst.push(slowest);
  }
  return [
    row('redact', 'redactPIIAndAddresses on realistic chat text', 'MB/s', throughput),
    row('redact', 'redactPIIAndAddresses, slowest adversarial 100 KB input', 'ms', worst, '<= 50'),
  ];
}
