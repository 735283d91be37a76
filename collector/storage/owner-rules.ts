import type { OwnerRule } from '../../shared/admin-api/documents.ts';
import { UNSAVED_VERSION } from './versioned-row.ts';

/**
 * A project's owner rules are rows (one per rule, in order), their version one row beside them in
 * `document_owners_versions`: as for a settings row (versioned-row.ts), it moves forward by at
 * least 1 on every save, and 0 is the version of a project that never saved any.
 */
const VERSION = `coalesce((select updated_at from document_owners_versions where project_id = ?1), ${UNSAVED_VERSION})`;

const RULES = 'select pattern, owner from document_owners where project_id = ? order by position';

export async function ownersOf(d1: D1Database, projectId: string): Promise<OwnerRule[]> {
  const { results } = await d1.prepare(RULES).bind(projectId).all<OwnerRule>();
  return results;
}

/** The rules in order and their version, read in one batch (one transaction), so the version is the rules'. */
export async function versionedOwnersOf(d1: D1Database, projectId: string): Promise<{ owners: OwnerRule[]; version: number }> {
  const [version, rules] = await d1.batch<{ version: number } | OwnerRule>([
    d1.prepare(`select ${VERSION} as version`).bind(projectId),
    d1.prepare(RULES).bind(projectId),
  ]);
  return { owners: rules!.results as OwnerRule[], version: (version!.results[0] as { version: number }).version };
}

/**
 * Replaces the project's owner rules, in order (the first match wins); with `ifVersion`, only while
 * the stored rules are still that version. Answers the new version, or undefined when they had
 * changed since (nothing written).
 */
export async function saveOwners(
  d1: D1Database,
  projectId: string,
  owners: readonly OwnerRule[],
  now: number,
  ifVersion?: number,
): Promise<number | undefined> {
  // Each statement of the batch (one transaction) writes only while the version is the one read;
  // the version moves last, so every statement before it sees the same one.
  const current = `(?2 or ${VERSION} = ?3)`;
  const args = [projectId, ifVersion === undefined ? 1 : 0, ifVersion ?? UNSAVED_VERSION] as const;
  const results = await d1.batch([
    d1.prepare(`delete from document_owners where project_id = ?1 and ${current}`).bind(...args),
    d1
      .prepare(
        `insert into document_owners (project_id, position, pattern, owner)
         select ?1, key, json_extract(value, '$.pattern'), json_extract(value, '$.owner') from json_each(?4) where ${current}`,
      )
      .bind(...args, JSON.stringify(owners)),
    d1
      .prepare(
        `insert into document_owners_versions (project_id, updated_at) select ?1, ?4 where ${current}
         on conflict (project_id) do update set updated_at = max(excluded.updated_at, document_owners_versions.updated_at + 1)
         returning updated_at as version`,
      )
      .bind(...args, now),
  ]);
  return (results.at(-1)!.results[0] as { version: number } | undefined)?.version;
}
