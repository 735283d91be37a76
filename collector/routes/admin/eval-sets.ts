import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../../env.ts';
import { ApiError } from '../../errors.ts';
import { EVAL_LAYERS } from '../../loop/eval-sets.ts';
import { validQuery } from '../../middleware/valid-query.ts';
import { evalItems, evalSetVersions } from '../../storage/eval-sets.ts';

export const evalSetRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/eval-sets: every frozen version of every layer, newest first. */
  .get('/eval-sets', async (c) => c.json({ sets: await evalSetVersions(c.env.DB, c.get('auth').projectId) }))
  /** GET /v1/admin/eval-sets/:layer: one layer (latest version, or `?version=2026-W49`) as JSONL. */
  .get(
    '/eval-sets/:layer',
    validQuery(v.strictObject({ version: v.optional(v.pipe(v.string(), v.regex(/^\d{4}-W\d{2}$/, 'must be an ISO week like 2026-W49'))) })),
    async (c) => {
      const layer = c.req.param('layer');
      if (!(EVAL_LAYERS as readonly string[]).includes(layer)) {
        throw new ApiError(404, { code: 'unknown_layer', message: `Layers are ${EVAL_LAYERS.join(', ')}`, field: 'layer' });
      }
      const { projectId } = c.get('auth');
      const requested = c.get('input').version;
      const versions = (await evalSetVersions(c.env.DB, projectId)).filter((s) => s.layer === layer);
      // A frozen version may hold no items; one never frozen is an error, not an empty set.
      const version = requested ? versions.find((s) => s.version === requested)?.version : versions[0]?.version;
      if (requested && !version)
        throw new ApiError(404, { code: 'unknown_version', message: `No ${layer} eval set was frozen in ${requested}`, field: 'version' });
      if (!version)
        throw new ApiError(404, { code: 'no_eval_set', message: 'No eval set has been built yet: the nightly job builds one a week', field: 'version' });
      const lines = await evalItems(c.env.DB, projectId, layer, version);
      c.header('Content-Type', 'application/x-ndjson; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="eval-${layer}-${version}.jsonl"`);
      return c.body(lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : ''));
    },
  );
