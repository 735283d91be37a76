/** The admin console's rows: what it weighs in the browser, and how fast the review queue moves. */
import { consoleReviewBench } from './console-review.ts';
import { consoleSizeBench } from './console-size.ts';
import type { Row } from './stats.ts';

export async function consoleBench(): Promise<Row[]> {
  return [...(await consoleSizeBench()), ...(await consoleReviewBench())];
}
