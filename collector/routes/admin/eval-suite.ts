import { type Context, Hono, type MiddlewareHandler, type Next } from 'hono';
import * as v from 'valibot';
import { externalId } from '../../../shared/schema/common.ts';
import { MAX_SUITE_QUERIES, SuiteQuerySchema } from '../../../shared/schema/eval-suite.ts';
import { type FieldError, firstFieldError } from '../../../shared/validation.ts';
import type { AppEnv, WithInput } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { validBody } from '../../middleware/valid-body.ts';
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

const readBody = jsonBody({ maxBytes: MAX_SUITE_QUERY_BYTES, contentTypes: ['application/json'] });
const checkBody = validBody(SuiteQuerySchema, 'invalid_suite_query');

/**
 * Reads and checks the body as `jsonBody` and `validBody` do. A bad path id is named first, beside
 * every fault a 400 of the body would name, so both are put right in one round.
 */
const validSuiteQuery: MiddlewareHandler<AppEnv & WithInput<v.InferOutput<typeof SuiteQuerySchema>>> = async (c, next) => {
  const fault = queryIdFault(c.req.param('queryId') ?? '');
  // jsonBody sets `body`, which validBody reads: the one context, typed for either.
  const read = (then: Next) => readBody(c as unknown as Context<AppEnv>, async () => void (await checkBody(c, then)));
  if (!fault) return read(next);
  const faultsOfBody = await read(async () => {}).then(
    () => [],
    // A body too large or of the wrong type (413, 415) is left for the next round, as before the id was put right.
    (err: unknown) => (err instanceof ApiError && err.status === 400 ? (err.fields ?? [{ field: err.field ?? 'body', message: err.message }]) : []),
  );
  throw ApiError.fields('invalid_query_id', [fault, ...faultsOfBody]);
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
