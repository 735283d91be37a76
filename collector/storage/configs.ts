import { eq } from 'drizzle-orm';
import { defaultWidgetConfig, type WidgetConfig } from '../../shared/schema/config.ts';
import { widgetConfigs } from './schema/index.ts';
import type { Db } from './sql/db.ts';

export async function widgetConfigOf(db: Db, projectId: string): Promise<WidgetConfig> {
  const row = await db.select({ config: widgetConfigs.config }).from(widgetConfigs).where(eq(widgetConfigs.projectId, projectId)).get();
  return row?.config ?? defaultWidgetConfig();
}

export async function saveWidgetConfig(db: Db, projectId: string, config: WidgetConfig, now: number): Promise<void> {
  await db
    .insert(widgetConfigs)
    .values({ projectId, config, updatedAt: now })
    .onConflictDoUpdate({ target: widgetConfigs.projectId, set: { config, updatedAt: now } });
}
