import * as v from 'valibot';
import { DEFAULT_LOOP_SETTINGS, type LoopSettings, StoredLoopSettingsSchema } from '../../shared/schema/settings.ts';

/** A project's loop settings, defaults filled in (a setting added later gets its default). */
export async function settingsOf(d1: D1Database, projectId: string): Promise<LoopSettings> {
  const row = await d1.prepare('select settings from loop_settings where project_id = ?').bind(projectId).first<{ settings: string }>();
  if (!row) return DEFAULT_LOOP_SETTINGS;
  const parsed = v.safeParse(StoredLoopSettingsSchema, JSON.parse(row.settings));
  return parsed.success ? parsed.output : DEFAULT_LOOP_SETTINGS;
}

export async function saveSettings(d1: D1Database, projectId: string, settings: LoopSettings, now: number): Promise<void> {
  await d1
    .prepare(
      'insert into loop_settings (project_id, settings, updated_at) values (?, ?, ?) on conflict (project_id) do update set settings = excluded.settings, updated_at = excluded.updated_at',
    )
    .bind(projectId, JSON.stringify(settings), now)
    .run();
}
