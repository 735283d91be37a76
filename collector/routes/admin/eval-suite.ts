import { Hono, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { externalId } from '../../../shared/schema/common.ts';
import { MAX_SUITE_QUERIES, SuiteQuerySchema } from '../../../shared/schema/eval-suite.ts';
import { firstFieldError } from '../../../shared/validation.ts';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { validBody } from '../../middleware/valid-body.ts';
import { deleteSuiteQuery, listSuite, saveSuiteQuery } from '../../storage/eval-suite.ts';

/** One question with its candidates: well within what D1 keeps in one value. */
export const MAX_SUITE_QUERY_BYTES = 1_000_000;

function queryIdOf(raw: string): string {
  const parsed = v.safeParse(externalId(), raw);
  if (!parsed.success) throw new ApiError(400, { code: 'invalid_query_id', message: firstFieldError(parsed.issues).message, field: 'queryId' });
  return parsed.output;
}

/** The path's id is checked before the body is read: a bad one is named first. */
const validQueryId: MiddlewareHandler<AppEnv> = async (c, next) => {
  queryIdOf(c.req.param('queryId') ?? '');
  await next();
};

export const evalSuiteRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/eval-suite: the curated questions, each with how many candidates and judgements it has. */
  .get('/eval-suite', async (c) => c.json({ queries: await listSuite(c.env.DB, c.get('auth').projectId), max: MAX_SUITE_QUERIES }))
  /** PUT /v1/admin/eval-suite/:queryId: adds or replaces one curated question (idempotent). */
  .put(
    '/eval-suite/:queryId',
    validQueryId,
    jsonBody({ maxBytes: MAX_SUITE_QUERY_BYTES, contentTypes: ['application/json'] }),
    validBody(SuiteQuerySchema, 'invalid_suite_query'),
    async (c) => {
      const queryId = queryIdOf(c.req.param('queryId'));
      const q = c.get('input');
      if ((await saveSuiteQuery(c.env.DB, c.get('auth').projectId, queryId, q, Date.now())) === 'full') {
        throw new ApiError(409, {
          code: 'suite_full',
          message: `The suite holds ${MAX_SUITE_QUERIES} questions, its most: remove one first`,
          field: 'queryId',
        });
      }
      return c.json({ queryId, query: q.query, candidates: q.candidates.length, judgements: q.judgements.length });
    },
  )
  /** DELETE /v1/admin/eval-suite/:queryId: removes one curated question. */
  .delete('/eval-suite/:queryId', async (c) => {
    const queryId = queryIdOf(c.req.param('queryId'));
    if (!(await deleteSuiteQuery(c.env.DB, c.get('auth').projectId, queryId)))
      throw new ApiError(404, { code: 'suite_query_not_found', message: `No curated question ${queryId}`, field: 'queryId' });
    return c.json({ queryId, deleted: true });
  });
