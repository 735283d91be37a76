import { Hono } from 'hono';
import { LoopSettingsSchema } from '../../../shared/schema/settings.ts';
import type { AppEnv } from '../../env.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { validBody } from '../../middleware/valid-body.ts';
import { saveSettings, settingsOf } from '../../storage/loop-settings.ts';

/** Largest PUT /v1/admin/settings body. */
const MAX_SETTINGS_BYTES = 4 * 1024;

export const settingsRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/settings: the loop's settings, defaults filled in. */
  .get('/settings', async (c) => c.json(await settingsOf(c.env.DB, c.get('auth').projectId)))
  /** PUT /v1/admin/settings: replace them; absent fields take their defaults. */
  .put(
    '/settings',
    jsonBody({ maxBytes: MAX_SETTINGS_BYTES, contentTypes: ['application/json'] }),
    validBody(LoopSettingsSchema, 'invalid_settings'),
    async (c) => {
      const settings = c.get('input');
      await saveSettings(c.env.DB, c.get('auth').projectId, settings, Date.now());
      return c.json(settings);
    },
  );
