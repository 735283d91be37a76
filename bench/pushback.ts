/**
 * How long reading a follow-up for a pushback takes (`withoutPushback`, which the collector runs on
 * every question it stores): the slowest of the longest queries it takes, made of long runs of
 * spaces, line breaks or punctuation that make careless clause patterns scan back at each character,
 * some of them pushing back, so that what a phrase leaves is cleared too.
 */

import { withoutPushback } from '../shared/contradiction.ts';
import { MAX_QUERY_CHARS } from '../shared/thresholds.ts';
import { type Row, row } from './stats.ts';

const RUNS = 5;
const pad = (head: string, run: string, tail = ' x') => `${head}${run.repeat(Math.floor((MAX_QUERY_CHARS - head.length - tail.length) / run.length))}${tail}`;
const longest = [
  pad('x', ' '),
  pad('.', ' '),
  pad('', '\u3000'),
  pad('', '、'),
  pad('eso está mal', ' '),
  pad('', '¿'),
  pad('no', ', '),
  pad('', '\n'),
  pad('', '\r\n'),
  pad('', ' \n'),
  pad('pero', '\n'),
  // Lines opening with a capital, and commas or line breaks after a value stated, which may open a sentence.
  pad('', '\nA'),
  pad('1', ', '),
  pad('', '\n1'),
  pad('Son 1', ' a', ', ¿está seguro?'),
  // Pushbacks, whose phrases are left out and what they leave cleared.
  pad('Are you sure?', ' '),
  pad('.', ' ', ' thanks, are you sure?'),
  pad('are you sure', ','),
  pad('Are you sure? a', ' '),
  pad('Are you sure? a', ','),
  pad('That is wrong. x', ' ; '),
];

export async function pushbackBench(): Promise<Row[]> {
  const worst: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    let slowest = 0;
    for (const query of longest) {
      const start = performance.now();
      withoutPushback(query);
      slowest = Math.max(slowest, performance.now() - start);
    }
    worst.push(slowest);
  }
  return [row('pushback', `withoutPushback, slowest ${MAX_QUERY_CHARS}-character query`, 'ms', worst, '<= 20')];
}
