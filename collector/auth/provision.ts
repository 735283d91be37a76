import { MAX_ORIGIN_CHARS } from '../../shared/thresholds.ts';
import { generateKey, hashKey, keyPrefix } from './key-format.ts';
import { KEY_KINDS, type KeyKind } from './key-kinds.ts';

export interface NewProject {
  id: string;
  name: string;
  /** Origins whose pages may use the write key, e.g. `http://localhost:5173`. */
  origins: readonly string[];
}

export interface ProvisionedProject extends NewProject {
  /** The plain keys: shown once, never stored. */
  keys: Record<KeyKind, string>;
  /** SQL statements that create the project, its origins and the hashed keys. */
  statements: string[];
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Makes a project with one key of each kind, as SQL, so the same code serves `npm run keys`
 * (on a local D1, or printed for `wrangler d1 execute` on a deployed one) and the tests (through the D1 binding).
 */
export async function provisionProject(given: NewProject): Promise<ProvisionedProject> {
  // An origin given twice is allowed once, and said once.
  const project = { ...given, origins: [...new Set(given.origins)] };
  checkProjectId(project.id);
  const keys = Object.fromEntries(KEY_KINDS.map((kind) => [kind, generateKey(kind)])) as Record<KeyKind, string>;
  const statements = [
    `insert into projects (id, name) values (${quote(project.id)}, ${quote(project.name)}) on conflict do nothing;`,
    ...originStatements(project.id, { add: project.origins }),
  ];
  for (const kind of KEY_KINDS) {
    const key = keys[kind];
    statements.push(
      `insert into api_keys (key_hash, project_id, kind, prefix) values (${quote(await hashKey(key))}, ${quote(project.id)}, ${quote(kind)}, ${quote(keyPrefix(key))});`,
    );
  }
  return { ...project, keys, statements };
}

function checkProjectId(id: string): void {
  if (!/^[\w-]{1,64}$/.test(id)) throw new Error(`project id must be 1-64 letters, digits, _ or -: ${id}`);
}

/**
 * The origin `given` names, as a browser sends it: an http(s) one as the URL standard writes it;
 * one of another scheme (a Capacitor app's `capacitor://localhost`, an extension's
 * `chrome-extension://<id>`), whose origin the standard leaves opaque, as its scheme and host.
 * Undefined when it names none (no host: `file://`, whose pages send `null`).
 */
function browserOrigin(given: string): string | undefined {
  try {
    const url = new URL(given);
    if (url.origin !== 'null') return url.origin;
    return url.host ? `${url.protocol}//${url.host}` : undefined;
  } catch {
    return undefined;
  }
}

/** Throws unless `origin` is one (scheme://host[:port], nothing after), written as the browser sends it. */
function checkOrigin(origin: string): void {
  if (origin.length > MAX_ORIGIN_CHARS) throw new Error(`an origin is at most ${MAX_ORIGIN_CHARS} characters: ${origin.slice(0, 60)}…`);
  const sent = browserOrigin(origin);
  // Offered when the input was one written otherwise.
  const written = sent ? `: give it as the browser sends it, ${sent}` : '';
  if (sent !== origin) throw new Error(`not an origin (scheme://host[:port]): ${origin}${written}`);
}

/** SQL adding and removing a project's allowed origins, each checked first: a bad one changes nothing. */
export function originStatements(projectId: string, change: { add?: readonly string[]; remove?: readonly string[] }): string[] {
  checkProjectId(projectId);
  const { add = [], remove = [] } = change;
  for (const origin of [...add, ...remove]) checkOrigin(origin);
  return [
    ...add.map((o) => `insert into project_origins (project_id, origin) values (${quote(projectId)}, ${quote(o)}) on conflict do nothing;`),
    ...remove.map((o) => `delete from project_origins where project_id = ${quote(projectId)} and origin = ${quote(o)};`),
  ];
}
