/** `npm run keys`'s command line: which command, its argument and its flags, checked before any D1 is touched. */
import { helpAsked, parseCommand, wholeNumber } from './cli.ts';

const OPTIONS = {
  name: { type: 'string' },
  origin: { type: 'string', multiple: true },
  add: { type: 'string', multiple: true },
  remove: { type: 'string', multiple: true },
  'persist-to': { type: 'string' },
  'print-sql': { type: 'boolean' },
  after: { type: 'string' },
} as const;

interface Takes {
  /** What its one argument is, named in a command line without it; none for a command taking none. */
  arg?: string;
  flags: (keyof typeof OPTIONS)[];
  usage: string;
}

/** What each command takes: another flag, or a word more (`--name My App` unquoted), would be ignored, so it is refused. */
const USAGE: Record<string, Takes> = {
  create: { arg: 'project id', flags: ['name', 'origin', 'persist-to', 'print-sql'], usage: 'create <project-id> [--name N] [--origin URL ...]' },
  origins: {
    arg: 'project id',
    flags: ['add', 'remove', 'persist-to', 'print-sql'],
    usage: 'origins <project-id> [--add URL ...] [--remove URL ...]',
  },
  list: { flags: ['persist-to'], usage: 'list' },
  revoke: {
    arg: "key's prefix (its first 10 characters)",
    flags: ['after', 'persist-to', 'print-sql'],
    usage: 'revoke <key-prefix (its first 10 characters)> [--after DAYS]',
  },
};
const COMMANDS = 'npm run keys -- create <project-id> | origins <project-id> | list | revoke <prefix>';

/** A command's usage, for the commands' own names alone (not `toString`, which every object has). */
const takesOf = (command: string): Takes | undefined => (Object.hasOwn(USAGE, command) ? USAGE[command] : undefined);

const usageOf = (takes: Takes) => `npm run keys -- ${takes.usage} [--persist-to DIR]${takes.flags.includes('print-sql') ? ' [--print-sql]' : ''}`;

/** What `--help` prints: the usage of the command given, or of every command. */
export function keysHelp(args: string[]): string | undefined {
  if (!helpAsked(args)) return undefined;
  const takes = takesOf(args[0] ?? '');
  return `usage: ${(takes ? [takes] : Object.values(USAGE)).map(usageOf).join('\n       ')}`;
}

export function parseKeysCommand(args: string[]) {
  // Every word is taken here: how many a command takes is checked below, with that command's usage.
  const { positionals, values } = parseCommand(OPTIONS, COMMANDS, { positionals: args.length, args });
  const [command = '', ...rest] = positionals;
  const takes = takesOf(command);
  if (!takes) throw new Error(`usage: ${COMMANDS}`);
  const usage = `usage: ${usageOf(takes)}`;
  const wanted = takes.arg === undefined ? 0 : 1;
  if (rest.length !== wanted) throw new Error(`${rest.length > wanted ? `unexpected ${JSON.stringify(rest[wanted])}` : `missing the ${takes.arg}`}; ${usage}`);
  const other = Object.keys(values).find((flag) => !takes.flags.includes(flag as keyof typeof OPTIONS));
  if (other) throw new Error(`${command} takes no --${other}; ${usage}`);
  // From 0 (at once) to some ten years.
  const after = values.after === undefined ? undefined : wholeNumber('--after', values.after, 0, 3650, 'days');
  return { command, arg: rest[0] ?? '', values, after };
}

export type KeysCommand = ReturnType<typeof parseKeysCommand>;
