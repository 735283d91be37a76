import { Hono } from 'hono';
import * as v from 'valibot';
import { CORRECTION_STATUSES } from '../../../shared/admin-api/documents.ts';
import { freeText } from '../../../shared/schema/common.ts';
import { OwnerRulesSchema } from '../../../shared/schema/owners.ts';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { etagOf, saveIfMatch, validSave } from '../../middleware/if-match.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { validBody } from '../../middleware/valid-body.ts';
import { intParam, validQuery } from '../../middleware/valid-query.ts';
import { correctionsOf, flaggedDocuments, resolveCorrection } from '../../storage/documents.ts';
import { ownersOf, saveOwners, versionedOwnersOf } from '../../storage/owner-rules.ts';

const Resolve = v.strictObject({ note: v.pipe(freeText(2_000), v.trim(), v.minLength(1, 'must not be empty')) });

/** Owner lists and notes are small. */
const SMALL_BODY = { maxBytes: 64 * 1024, contentTypes: ['application/json'] };

export const documentRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/documents: flagged documents and versions, with the test's reasons, evidence and owner. */
  .get('/documents', async (c) => {
    const { projectId } = c.get('auth');
    const [documents, owners] = await Promise.all([flaggedDocuments(c.env.DB, projectId), ownersOf(c.env.DB, projectId)]);
    return c.json({ documents, owners });
  })
  /** GET /v1/admin/owners: who owns which documents, by id pattern; their version as the ETag. */
  .get('/owners', async (c) => {
    const { owners, version } = await versionedOwnersOf(c.env.DB, c.get('auth').projectId);
    c.header('ETag', etagOf(version));
    return c.json({ owners });
  })
  /** PUT /v1/admin/owners: replace the whole list; with If-Match, only over that version (else 412). */
  .put('/owners', validSave(SMALL_BODY, OwnerRulesSchema, 'invalid_owners'), async (c) => {
    const { owners } = c.get('input');
    await saveIfMatch(c, (ifVersion) => saveOwners(c.env.DB, c.get('auth').projectId, owners, Date.now(), ifVersion));
    return c.json({ owners });
  })
  /** GET /v1/admin/corrections: the inbox, grouped by document owner. */
  .get(
    '/corrections',
    validQuery(v.strictObject({ status: v.optional(v.picklist(CORRECTION_STATUSES), 'open'), limit: intParam(1, 1000, 200) })),
    async (c) => {
      const { status, limit } = c.get('input');
      const list = await correctionsOf(c.env.DB, c.get('auth').projectId, status, limit);
      // A Map: an owner is any name (`constructor` too), and the groups keep the order of their newest correction.
      const byOwner = new Map<string | null, typeof list>();
      for (const item of list) {
        const group = byOwner.get(item.owner);
        if (group) group.push(item);
        else byOwner.set(item.owner, [item]);
      }
      return c.json({ owners: [...byOwner].map(([owner, corrections]) => ({ owner, corrections })) });
    },
  )
  /** POST /v1/admin/corrections/:eventId/resolve: done, with a note on what was changed. */
  .post('/corrections/:eventId/resolve', jsonBody(SMALL_BODY), validBody(Resolve, 'invalid_resolution'), async (c) => {
    const eventId = c.req.param('eventId');
    const outcome = await resolveCorrection(c.env.DB, c.get('auth').projectId, eventId, c.get('input').note, Date.now());
    if (outcome === 'not_found') throw new ApiError(404, { code: 'correction_not_found', message: `No correction ${eventId}`, field: 'eventId' });
    // Resolved by someone else meanwhile: their note stands.
    if (outcome === 'resolved_already')
      throw new ApiError(409, { code: 'correction_resolved', message: `Correction ${eventId} is resolved already`, field: 'eventId' });
    // The nightly job moved it to another document each time it was about to be resolved: still open.
    if (outcome === 'rerouted')
      throw new ApiError(409, {
        code: 'correction_rerouted',
        message: `Correction ${eventId} was moved to another document while being resolved, and is still open: resolve it again`,
        field: 'eventId',
      });
    return c.json({ eventId, status: 'resolved', note: c.get('input').note });
  });
