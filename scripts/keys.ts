/**
 * Projects and keys in the local D1.
 *
 *   npm run keys -- create <project-id> [--name "My app"] [--origin https://app.example.com ...]
 *   npm run keys -- origins <project-id> [--add https://staging.example.com ...] [--remove https://old.example.com ...]
 *   npm run keys -- list
 *   npm run keys -- revoke <key-prefix (its first 10 characters)> [--after DAYS]
 *
 * Add `--persist-to <dir>` to work on a D1 other than .wrangler/state. For a deployed collector,
 * `npm run -s keys -- create <id> --print-sql > project.sql` writes the SQL alone (the keys go to
 * the terminal), to run with `wrangler d1 execute DB --remote --file project.sql`; `origins` and
 * `revoke` take `--print-sql` too.
 */
import { originStatements, provisionProject } from '../collector/auth/provision.ts';
import { NOW_MS_SQL } from '../collector/storage/sql/now-ms.ts';
import { failInOneLine } from './cli.ts';
import { type KeysCommand, keysHelp, parseKeysCommand } from './keys-args.ts';
import { type LocalD1Sql, migrateWhenBehind, withLocalD1 } from './local-d1-sql.ts';
import { shellWord } from './next-command.ts';
import { localD1Exists } from './wrangler.ts';

/**
 * Days a revoked write key goes on working unless `--after` says otherwise: a returning visitor's
 * outbox keeps events recorded under it until they are delivered, and the collector drops them once
 * it stops. Other keys are secrets, revoked because they may have leaked: at once.
 */
export const WRITE_KEY_GRACE_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * Brings the local D1 up to date if wrangler has made it. One no start has made yet has no
 * projects or keys: the commands that only read or revoke say so without making it.
 */
async function migrateIfMade(sql: LocalD1Sql): Promise<boolean> {
  if (!localD1Exists(sql.d1)) return false;
  await migrateWhenBehind(sql);
  return true;
}

/** Runs the command, opening the local D1 once at most (opened on its first statement). */
async function run({ command, arg, values, after }: KeysCommand, sql: LocalD1Sql) {
  switch (command) {
    case 'create': {
      // Checked before the D1 is touched: a bad origin changes nothing.
      const p = await provisionProject({ id: arg, name: values.name ?? arg, origins: values.origin ?? [] });
      // With --print-sql the SQL alone goes to stdout, for a file to run on a deployed collector's
      // D1, and the local D1 is left alone; the keys go to stderr, to the terminal.
      const say = values['print-sql'] ? console.error : console.log;
      let existing: { name: string; origins: string | null } | undefined;
      if (values['print-sql']) console.log(p.statements.join('\n'));
      else {
        await migrateWhenBehind(sql);
        // What was there, then the new keys, in one transaction.
        const [before] = await sql.queryEach<{ name: string; origins: string | null }>([
          `select name, (select group_concat(origin, ', ') from project_origins o where o.project_id = p.id) as origins from projects p where id = '${p.id.replaceAll("'", "''")}'`,
          ...p.statements,
        ]);
        existing = before?.[0];
      }
      // Creating a project that exists adds a key set to it (a rotation), and the origins given.
      if (existing) {
        const added = p.origins.filter((o) => !(existing.origins ?? '').split(', ').includes(o));
        say(
          `Project ${p.id} exists ("${existing.name}", origins: ${existing.origins || 'none'}): four more keys added to it; its name stays as it was` +
            (added.length ? `, and ${added.join(', ')} ${added.length === 1 ? 'is' : 'are'} now allowed too.` : '.'),
        );
      } else say(`Project ${p.id} (origins: ${p.origins.join(', ') || 'none'})`);
      say(`  write key  (browser, origin-restricted): ${p.keys.write}`);
      say(`  server key (RAG backend, writes traces): ${p.keys.server}`);
      say(`  admin key  (reads, configures):          ${p.keys.admin}`);
      say(`  viewer key (reads the loop's figures):   ${p.keys.viewer}`);
      say('Keys are stored hashed: save them now, they cannot be shown again.');
      return;
    }
    case 'origins': {
      // Checked before the D1 is touched: a bad origin changes nothing.
      const statements = originStatements(arg, { add: values.add ?? [], remove: values.remove ?? [] });
      if (values['print-sql']) {
        console.log(statements.join('\n'));
        return;
      }
      const id = arg.replaceAll("'", "''");
      // Said with the D1 it looked in: the command without it would make the project in another.
      const create = ['create', arg, ...(values['persist-to'] === undefined ? [] : ['--persist-to', values['persist-to']])].map(shellWord).join(' ');
      if (!(await migrateIfMade(sql)) || !(await sql.query(`select 1 from projects where id = '${id}'`)).length)
        throw new Error(`no project ${arg}: make it with npm run keys -- ${create}`);
      // The change and what it leaves, in one transaction.
      const now = (
        (await sql.queryEach<{ origin: string }>([...statements, `select origin from project_origins where project_id = '${id}' order by origin`])).at(-1) ?? []
      ).map((r) => r.origin);
      console.log(`Project ${arg} origins: ${now.join(', ') || 'none (its write key works from no browser page)'}`);
      return;
    }
    case 'list': {
      const rows = (await migrateIfMade(sql))
        ? await sql.query(
            `select p.id, k.kind, k.prefix, case when k.revoked_at is null then '' when k.revoked_at <= ${NOW_MS_SQL} then 'yes'
               else 'from ' || strftime('%Y-%m-%dT%H:%MZ', k.revoked_at / 1000, 'unixepoch') end as revoked,
               (select group_concat(origin, ' ') from project_origins o where o.project_id = p.id) as origins
             from projects p join api_keys k on k.project_id = p.id order by p.id, k.kind`,
          )
        : [];
      // An empty table says nothing of why: a fresh clone's D1, or another --persist-to.
      if (!rows.length) {
        const dir = values['persist-to'];
        console.log(
          dir === undefined
            ? 'No projects in this D1: npm start makes the dev project, npm run keys -- create <project-id> another'
            : `No projects in this D1: npm run keys -- create <project-id> --persist-to ${shellWord(dir)} makes one`,
        );
        return;
      }
      console.table(rows);
      return;
    }
    case 'revoke': {
      // A key's stored prefix is its first 10 characters: anything shorter matches none.
      if (arg.length < 10) throw new Error(`${JSON.stringify(arg)} is shorter than a key's prefix: give its first 10 characters (or the whole key)`);
      const prefix = arg.slice(0, 10);
      const days = after === undefined ? `(case when kind = 'write' then ${WRITE_KEY_GRACE_DAYS} else 0 end)` : String(after);
      // A key still in its grace is live: revoking it again moves its end, to now with --after 0.
      const revoke = `update api_keys set revoked_at = ${NOW_MS_SQL} + cast(${days} * ${DAY_MS} as integer) where prefix = '${prefix.replaceAll("'", "''")}' and (revoked_at is null or revoked_at > ${NOW_MS_SQL})`;
      if (values['print-sql']) {
        console.log(`${revoke};`);
        return;
      }
      const rows = (await migrateIfMade(sql)) ? await sql.query<{ kind: string; revoked_at: number }>(`${revoke} returning kind, revoked_at`) : [];
      // A prefix mistyped (or revoked already) revokes nothing: a script rotating keys must hear it.
      if (!rows.length) throw new Error(`no live key starts ${prefix} in this D1 (a deployed collector's: --print-sql)`);
      const until = Math.max(...rows.map((r) => r.revoked_at));
      console.log(
        `Revoked ${rows.length} key(s) starting ${prefix}` +
          (until > Date.now() ? `: working until ${new Date(until).toISOString()}, for events visitors' outboxes recorded under it` : ''),
      );
      return;
    }
  }
}

// A failure in one line, as every command says it; and `npm run keys -- list | head -1` ends quietly.
failInOneLine();
const help = keysHelp(process.argv.slice(2));
if (help) {
  console.log(help);
} else {
  const args = parseKeysCommand(process.argv.slice(2));
  await withLocalD1({ persistTo: args.values['persist-to'] }, (sql) => run(args, sql));
}
