import { Hono } from 'hono';
import * as v from 'valibot';
import { CHUNK_SORTS, CHUNKS_LIMIT, CHUNKS_MAX_LIMIT, CHUNKS_MAX_MIN_SHOWN, CHUNKS_MIN_SHOWN } from '../../../shared/admin-api/chunks.ts';
import type { AppEnv } from '../../env.ts';
import { intParam, validQuery } from '../../middleware/valid-query.ts';
import { chunkUsage } from '../../storage/chunk-usage.ts';

const ChunksQuery = v.strictObject({
  /** Chunks shown first fewer times are left out. */
  minShown: intParam(1, CHUNKS_MAX_MIN_SHOWN, CHUNKS_MIN_SHOWN),
  sort: v.optional(v.picklist(CHUNK_SORTS), 'ctr'),
  limit: intParam(1, CHUNKS_MAX_LIMIT, CHUNKS_LIMIT),
});

export const chunkRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/chunks: chunks shown often, least clicked first (or most flagged as the wrong source). */
  .get('/chunks', validQuery(ChunksQuery), async (c) => {
    const chunks = await chunkUsage(c.env.DB, c.get('auth').projectId, c.get('input'));
    return c.json({ chunks });
  });
