import { Hono } from 'hono';
import * as v from 'valibot';
import { externalId } from '../../../shared/schema/common.ts';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { eraseUser } from '../../storage/erasure.ts';

export const userRoutes = new Hono<AppEnv>()
  /**
   * DELETE /v1/admin/users/:userIdHash: erases one user's traces, events (dead letters' too),
   * corrections and review items; answers the counts, and `done: false` when the user has more left
   * than one call erases.
   */
  .delete('/users/:userIdHash', async (c) => {
    const userIdHash = c.req.param('userIdHash');
    // Any id a trace can hold (shared/schema/trace.ts) can be erased.
    if (!v.is(externalId(), userIdHash)) throw ApiError.fields('invalid_user', [{ field: 'userIdHash', message: 'Not a user id a trace can hold' }]);
    return c.json({ userIdHash, ...(await eraseUser(c.env.DB, c.get('auth').projectId, userIdHash)) });
  });
