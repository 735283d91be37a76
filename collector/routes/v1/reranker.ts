import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { weakly } from '../../middleware/if-match.ts';
import { requireKey } from '../../middleware/require-key.ts';
import { rankingModel } from '../../storage/ranking-model.ts';

/** Whether an If-None-Match header names `etag`: one of a list, weakly compared (`W/"v"`), or `*` (RFC 9110, 13.1.2). */
const noneMatch = (header: string | undefined, etag: string) =>
  header?.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || weakly(t) === etag;
  }) ?? false;

/**
 * The ETag of a version's artifact: its version, and the revision once erasure rewrote it (a
 * version has no `+`), so a backend holding the model as it was downloads it again.
 */
const modelTag = (version: string, revision: number) => (revision ? `"${version}+${revision}"` : `"${version}"`);

/** The 404 of a served version whose artifact cannot be read: clients rank in retrieval's order. */
const unreadable = (version: string) =>
  new ApiError(404, {
    code: 'no_model',
    message: `The served model ${version} cannot be read: rank in retrieval order, as POST /v1/rerank does`,
    field: 'version',
  });

/**
 * GET /v1/reranker (server key): the model users should get, for `createReranker`. The ETag names
 * the version and its revision, so a backend polling with If-None-Match downloads a model once per
 * promotion, and again after erasure took questions out of its memory. A served artifact this
 * collector cannot read is no model, as `POST /v1/rerank` ranks: served, a client would refuse it
 * and keep the model it had, the very one a rollback to it meant to stop.
 */
export const rerankerRoutes = new Hono<AppEnv>().get('/', requireKey('server'), async (c) => {
  const ifNoneMatch = c.req.header('If-None-Match');
  // A model kept parsed that the backend holds (its tag matches) is answered without reading the artifact.
  const { version, revision, model, artifact } = await rankingModel(c.env.DB, c.get('auth').projectId, (v, rev) => !noneMatch(ifNoneMatch, modelTag(v, rev)));
  if (!version)
    throw new ApiError(404, {
      code: 'no_model',
      message: 'No model is served (none promoted, or the last one rolled back): rank in retrieval order',
      field: 'version',
    });
  if (!model) throw unreadable(version);
  // Tagged with the revision of the text read, when read: else the backend would hold a rewrite's text under the old tag.
  const headers = { ETag: modelTag(version, revision), 'Cache-Control': 'no-cache' };
  // Not read: the backend holds the model kept.
  if (artifact === undefined || noneMatch(ifNoneMatch, headers.ETag)) return c.body(null, 304, headers);
  return c.body(artifact, 200, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
});
