import { Hono } from 'hono';
import * as v from 'valibot';
import { REVIEW_STATUSES, type ReviewQueue, VERDICTS } from '../../../shared/admin-api/review.ts';
import { freeText } from '../../../shared/schema/common.ts';
import { weeklyReviewCapacity } from '../../../shared/schema/settings.ts';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { validBody } from '../../middleware/valid-body.ts';
import { intParam, validQuery } from '../../middleware/valid-query.ts';
import { settingsOf } from '../../storage/loop-settings.ts';
import { latestTraining, newSinceLastModel } from '../../storage/models.ts';
import { answerItem, queueCounts, reviewItem, reviewItems } from '../../storage/review.ts';
import { trainingExampleCount } from '../../storage/training-data.ts';

const ReviewQuery = v.strictObject({
  status: v.optional(v.picklist(REVIEW_STATUSES), 'pending'),
  limit: intParam(1, 500, 20),
  /** Items of the list to pass over first: the list goes on past the 500 one request gives. */
  offset: intParam(0, 1_000_000, 0),
});

const Answer = v.pipe(
  v.strictObject({
    /** The reviewer's answer to "does this chunk help answer this query?"; null takes an answer back. */
    verdict: v.nullable(v.picklist(VERDICTS)),
    /** Optional, redacted like all free text. */
    note: v.optional(freeText(2_000)),
    /**
     * The verdict the reviewer saw (null: none): the answer is taken only while the item still has
     * it, so one given meanwhile in another tab or by another reviewer is not overwritten unseen.
     */
    ifVerdict: v.optional(v.nullable(v.picklist(VERDICTS))),
  }),
  // Taking an answer back clears its note: one sent with it would be dropped unsaid.
  v.forward(
    v.check((a) => a.verdict !== null || a.note === undefined, 'goes with an answer: taking one back (verdict null) clears the note'),
    ['note'],
  ),
);

/** The answer to an item id the project does not have. */
export const itemNotFound = (id: string) => new ApiError(404, { code: 'item_not_found', message: `No review item ${id}`, field: 'id' });

export const reviewRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/review: the queue, highest expected value first, with the week's budget and training readiness. */
  .get('/review', validQuery(ReviewQuery), async (c) => {
    const { projectId } = c.get('auth');
    const { status, limit, offset } = c.get('input');
    const now = Date.now();
    const [items, counts, examples, last, settings] = await Promise.all([
      reviewItems(c.env.DB, projectId, status, limit, offset),
      queueCounts(c.env.DB, projectId, now),
      trainingExampleCount(c.env.DB, projectId),
      latestTraining(c.env.DB, projectId),
      settingsOf(c.env.DB, projectId),
    ]);
    // The nightly job's rule: more examples than the last model saw, or an answer given or changed since.
    const fresh = examples >= settings.trainingMinConfirmed && (await newSinceLastModel(c.env.DB, projectId, last, examples));
    return c.json({
      items,
      budget: {
        minutesPerWeek: settings.reviewMinutesPerWeek,
        secondsPerItem: settings.secondsPerReviewItem,
        itemsPerWeek: weeklyReviewCapacity(settings),
        answeredLastWeek: counts.answeredLastWeek,
        pending: counts.pending,
        held: counts.held,
        heldFor: counts.heldFor,
        miningThreshold: counts.threshold,
      },
      // Confirmed items on held-out questions label the eval sets; the rest are the training examples.
      // Ready: enough of them, and some the last model did not see (else retraining has nothing new).
      training: {
        confirmed: counts.confirmed,
        examples,
        trainedOn: last?.confirmed ?? 0,
        minimum: settings.trainingMinConfirmed,
        ready: fresh,
      },
    } satisfies ReviewQueue);
  })
  /** GET /v1/admin/review/:id: one item, whatever its status (a link to it from far down the queue). */
  .get('/review/:id', async (c) => {
    const id = c.req.param('id');
    const item = await reviewItem(c.env.DB, c.get('auth').projectId, id);
    if (!item) throw itemNotFound(id);
    return c.json(item);
  })
  /** POST /v1/admin/review/:id: answer one item (or take the answer back with `verdict: null`). */
  .post('/review/:id', jsonBody({ maxBytes: 8 * 1024, contentTypes: ['application/json'] }), validBody(Answer, 'invalid_answer'), async (c) => {
    const { projectId } = c.get('auth');
    const id = c.req.param('id');
    const { verdict, note, ifVerdict } = c.get('input');
    const outcome = await answerItem(c.env.DB, projectId, id, verdict, note ?? null, Date.now(), ifVerdict);
    if (outcome === 'not_found') throw itemNotFound(id);
    if (outcome === 'changed') {
      const now = await reviewItem(c.env.DB, projectId, id);
      throw new ApiError(409, {
        code: 'review_item_changed',
        message: `Review item ${id} was answered meanwhile: its verdict is ${now?.verdict ?? 'none'}, not ${ifVerdict ?? 'none'}`,
        field: 'ifVerdict',
      });
    }
    return c.json(await reviewItem(c.env.DB, projectId, id));
  });
