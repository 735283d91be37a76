import { Hono } from 'hono';
import { LoopSettingsSchema } from '../../../shared/schema/settings.ts';
import type { AppEnv } from '../../env.ts';
import { etagOf, saveIfMatch, validSave } from '../../middleware/if-match.ts';
import { saveSettings, versionedSettingsOf } from '../../storage/loop-settings.ts';

/** Largest PUT /v1/admin/settings body. */
const MAX_SETTINGS_BYTES = 4 * 1024;

export const settingsRoutes = new Hono<AppEnv>()
  /** GET /v1/admin/settings: the loop's settings, defaults filled in, their version as the ETag. */
  .get('/settings', async (c) => {
    const { settings, version } = await versionedSettingsOf(c.env.DB, c.get('auth').projectId);
    c.header('ETag', etagOf(version));
    return c.json(settings);
  })
  /** PUT /v1/admin/settings: replace them (absent fields take their defaults); with If-Match, only over that version (else 412). */
  .put('/settings', validSave({ maxBytes: MAX_SETTINGS_BYTES, contentTypes: ['application/json'] }, LoopSettingsSchema, 'invalid_settings'), async (c) => {
    const settings = c.get('input');
    await saveIfMatch(c, (ifVersion) => saveSettings(c.env.DB, c.get('auth').projectId, settings, Date.now(), ifVersion));
    return c.json(settings);
  });
