import { Hono } from 'hono';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { weakly } from '../../middleware/if-match.ts';
import { requireKey } from '../../middleware/require-key.ts';
import { currentVersionAndRevision, revisedArtifact } from '../../storage/models.ts';
import { keepModel, keptModel } from '../../storage/ranking-model.ts';

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
  const { projectId } = c.get('auth');
  const { version, revision } = await currentVersionAndRevision(c.env.DB, projectId);
  if (!version)
    throw new ApiError(404, {
      code: 'no_model',
      message: 'No model is served (none promoted, or the last one rolled back): rank in retrieval order',
      field: 'version',
    });
  const ifNoneMatch = c.req.header('If-None-Match');
  const tagged = (rev: number) => ({ ETag: modelTag(version, rev), 'Cache-Control': 'no-cache' });
  // Kept parsed at this revision: known unreadable, or known good and held by the backend, with nothing to read.
  const kept = keptModel(projectId, version, revision);
  if (kept === null) throw unreadable(version);
  if (kept && noneMatch(ifNoneMatch, modelTag(version, revision))) return c.body(null, 304, tagged(revision));
  // Read once, with the revision the text is at: an erasure's rewrite since the revision above is
  // checked and tagged as what is sent, else the backend would hold the new text under the old tag.
  const read = await revisedArtifact(c.env.DB, projectId, version);
  if (!read) throw unreadable(version);
  const model = kept && read.revision === revision ? kept : keepModel(projectId, version, read.revision, read.artifact);
  if (!model) throw unreadable(version);
  if (noneMatch(ifNoneMatch, modelTag(version, read.revision))) return c.body(null, 304, tagged(read.revision));
  return c.body(read.artifact, 200, { ...tagged(read.revision), 'Content-Type': 'application/json; charset=utf-8' });
});
