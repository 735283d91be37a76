import * as v from 'valibot';
import { DEFAULT_LOOP_SETTINGS, type LoopSettings, StoredLoopSettingsSchema } from '../../shared/schema/settings.ts';
import { readVersioned, saveVersioned, UNSAVED_VERSION } from './versioned-row.ts';

/** A project's loop settings, defaults filled in (a setting added later gets its default), and their version. */
export async function versionedSettingsOf(d1: D1Database, projectId: string): Promise<{ settings: LoopSettings; version: number }> {
  const row = await readVersioned(d1, 'loop_settings', projectId);
  if (!row) return { settings: DEFAULT_LOOP_SETTINGS, version: UNSAVED_VERSION };
  const parsed = v.safeParse(StoredLoopSettingsSchema, JSON.parse(row.json));
  return { settings: parsed.success ? parsed.output : DEFAULT_LOOP_SETTINGS, version: row.version };
}

/** A project's loop settings, defaults filled in (a setting added later gets its default). */
export async function settingsOf(d1: D1Database, projectId: string): Promise<LoopSettings> {
  return (await versionedSettingsOf(d1, projectId)).settings;
}

/** Saves the settings (with `ifVersion`, only over that version): the new version, or undefined when they changed since. */
export async function saveSettings(d1: D1Database, projectId: string, settings: LoopSettings, now: number, ifVersion?: number): Promise<number | undefined> {
  return saveVersioned(d1, 'loop_settings', projectId, JSON.stringify(settings), now, ifVersion);
}
