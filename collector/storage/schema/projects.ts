import { index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { WidgetConfig } from '../../../shared/schema/config.ts';
import { KEY_KINDS } from '../../auth/key-kinds.ts';
import { ms, nowMs } from './columns.ts';

/** A team's app: keys, origins, data and config all hang off it. */
export const projects = sqliteTable('projects', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: ms('created_at').notNull().default(nowMs),
});

/** Origins a project's write key may be used from (CORS and the Origin check). */
export const projectOrigins = sqliteTable(
  'project_origins',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    origin: text('origin').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.origin] }), index('project_origins_origin').on(t.origin)],
);

/** API keys, stored only as SHA-256 hashes: a leaked database leaks no usable key. */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    kind: text('kind', { enum: KEY_KINDS }).notNull(),
    /** The key's first characters, to recognise it in a list without storing it. */
    prefix: text('prefix').notNull(),
    createdAt: ms('created_at').notNull().default(nowMs),
    revokedAt: ms('revoked_at'),
  },
  (t) => [index('api_keys_project').on(t.projectId)],
);

/** The widget config a project's product team set (absent: defaults). */
export const widgetConfigs = sqliteTable('widget_configs', {
  projectId: text('project_id')
    .primaryKey()
    .references(() => projects.id),
  config: text('config', { mode: 'json' }).$type<WidgetConfig>().notNull(),
  updatedAt: ms('updated_at').notNull(),
});
