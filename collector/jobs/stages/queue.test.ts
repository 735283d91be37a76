import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { utcDay } from '../../../shared/time.ts';
import { currentThreshold } from '../../storage/review.ts';
import { newProject } from '../../test/fixtures.ts';
import { stageContext } from '../../test/stage-context.ts';
import { queue } from './queue.ts';

const DAY = 86_400_000;

it('changes the mining threshold once a night, however often its slice runs', async () => {
  const p = await newProject();
  const night = Date.parse(`${utcDay(Date.now() - 10 * DAY)}T00:00:30Z`);
  const at = (now: number) => stageContext(p.id, now);
  await env.DB.prepare(`insert into mining_thresholds (project_id, at, from_value, to_value, reason) values (?, ?, 0, 1, 'tightened')`)
    .bind(p.id, night - 7 * DAY)
    .run();
  // An empty queue: the night relaxes the threshold, once, even when its slice runs again in a later call.
  await queue.slice(at(night), null);
  await queue.slice(at(night + 15 * 60_000), null);
  expect(await currentThreshold(env.DB, p.id)).toBeCloseTo(0.7);
  // The next night relaxes it again.
  await queue.slice(at(night + DAY), null);
  expect(await currentThreshold(env.DB, p.id)).toBeCloseTo(0.49);
});
