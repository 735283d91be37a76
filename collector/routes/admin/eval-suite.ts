import { Hono, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { externalId } from '../../../shared/schema/common.ts';
import { MAX_SUITE_QUERIES, type SuiteQuery, SuiteQuerySchema } from '../../../shared/schema/eval-suite.ts';
import { type FieldError, firstFieldError } from '../../../shared/validation.ts';
import type { AppEnv, WithInput } from '../../env.ts';
import { ApiError, checkedValue } from '../../errors.ts';
import { jsonReader } from '../../middleware/json-body.ts';
import { checkBody } from '../../middleware/valid-body.ts';
import { deleteSuiteQuery, listSuite, saveSuiteQuery } from '../../storage/eval-suite.ts';

/** One question with its candidates: well within what D1 keeps in one value. */
export const MAX_SUITE_QUERY_BYTES = 1_000_000;

/** A bad id as the field at fault, none for a good one. */
function queryIdFault(raw: string): FieldError | undefined {
  const parsed = v.safeParse(externalId(), raw);
  return parsed.success ? undefined : { field: 'queryId', message: firstFieldError(parsed.issues).message };
}

function queryIdOf(raw: string): string {
  const fault = queryIdFault(raw);
  if (fault) throw ApiError.fields('invalid_query_id', [fault]);
  return raw;
}

const readBody = jsonReader({ maxBytes: MAX_SUITE_QUERY_BYTES, contentTypes: ['application/json'] });

/**
 * Reads and checks the body as `jsonBody` and `validBody` do. A bad path id is named first, beside
 * every field at fault in the body, so both are put right in one round (a body too large or of
 * another media type is its 413 or 415 first).
 */
const validSuiteQuery: MiddlewareHandler<AppEnv & WithInput<SuiteQuery>> = async (c, next) => {
  const idFault = queryIdFault(c.req.param('queryId') ?? '');
  const read = await readBody(c);
  const body = read.ok ? checkBody(SuiteQuerySchema, 'invalid_suite_query', read.value) : read;
  if (idFault) throw ApiError.fields('invalid_query_id', [idFault, ...(body.ok ? [] : body.fields)]);
  c.set('input', checkedValue(body));
  await next();
};

export const evalSuiteRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/eval-suite: the curated questions, each with how many candidates and judgements it has. */
  .get('/eval-suite', async (c) => c.json({ queries: await listSuite(c.env.DB, c.get('auth').projectId), max: MAX_SUITE_QUERIES }))
  /** PUT /v1/admin/eval-suite/:queryId: adds or replaces one curated question (idempotent). */
  .put('/eval-suite/:queryId', validSuiteQuery, async (c) => {
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
  })
  /** DELETE /v1/admin/eval-suite/:queryId: removes one curated question. */
  .delete('/eval-suite/:queryId', async (c) => {
    const queryId = queryIdOf(c.req.param('queryId'));
    if (!(await deleteSuiteQuery(c.env.DB, c.get('auth').projectId, queryId)))
      throw new ApiError(404, { code: 'suite_query_not_found', message: `No curated question ${queryId}`, field: 'queryId' });
    return c.json({ queryId, deleted: true });
  });
