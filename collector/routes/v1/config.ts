import { Hono } from 'hono';
import { WidgetConfigSchema } from '../../../shared/schema/config.ts';
import { MAX_CONFIG_BODY_BYTES } from '../../../shared/thresholds.ts';
import type { AppEnv } from '../../env.ts';
import { saveIfMatch, validSave } from '../../middleware/if-match.ts';
import { requireKey } from '../../middleware/require-key.ts';
import { readsQuery } from '../../middleware/valid-query.ts';
import { saveWidgetConfig, widgetConfigOf } from '../../storage/configs.ts';

export const configRoutes = new Hono<AppEnv>()
  /** GET /v1/config: the widget config of the write key's project (defaults until set). */
  .get('/', readsQuery('key'), requireKey('write'), async (c) => {
    // One URL answers each project its config by the key in a header: a cache keeps a copy per key
    // (else a page with two projects' widgets would get the first one's twice), and only the browser's own.
    c.header('Cache-Control', 'private, max-age=60');
    c.header('Vary', 'Authorization, X-Api-Key');
    return c.json(await widgetConfigOf(c.env.DB, c.get('auth').projectId));
  })
  /** PUT /v1/config: replace the project's widget config (admin key); with If-Match (GET /v1/admin/config's ETag), only over that version (else 412). */
  .put(
    '/',
    // The key is never in the body: a request without one is refused before its body is read.
    requireKey('admin'),
    validSave({ maxBytes: MAX_CONFIG_BODY_BYTES, contentTypes: ['application/json'] }, WidgetConfigSchema, 'invalid_config'),
    async (c) => {
      const config = c.get('input');
      await saveIfMatch(c, (ifVersion) => saveWidgetConfig(c.env.DB, c.get('auth').projectId, config, Date.now(), ifVersion));
      return c.json(config);
    },
  );
