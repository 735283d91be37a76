import { defaultWidgetConfig, type WidgetConfig } from '../../shared/schema/config.ts';
import { readVersioned, saveVersioned, UNSAVED_VERSION } from './versioned-row.ts';

/** A project's widget config (defaults until set) and its version. */
export async function versionedWidgetConfigOf(d1: D1Database, projectId: string): Promise<{ config: WidgetConfig; version: number }> {
  const row = await readVersioned(d1, 'widget_configs', projectId);
  return row ? { config: JSON.parse(row.json) as WidgetConfig, version: row.version } : { config: defaultWidgetConfig(), version: UNSAVED_VERSION };
}

export async function widgetConfigOf(d1: D1Database, projectId: string): Promise<WidgetConfig> {
  return (await versionedWidgetConfigOf(d1, projectId)).config;
}

/** Saves the config (with `ifVersion`, only over that version): the new version, or undefined when it changed since. */
export async function saveWidgetConfig(d1: D1Database, projectId: string, config: WidgetConfig, now: number, ifVersion?: number): Promise<number | undefined> {
  return saveVersioned(d1, 'widget_configs', projectId, JSON.stringify(config), now, ifVersion);
}
